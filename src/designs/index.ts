// The designs: the study's prompts, its two tools, the workflow, the agent loop and the engineered designs.
export { MAX_TURNS, WORKFLOW_HITS } from "./limits.ts";
export {
  DESIGNS,
  type DesignEntry,
  DESIGN_IDS,
  DESIGN_LABELS,
  DESIGN_MARKS,
  type DesignId,
  ENGINEERED_DESIGNS,
  EXTENDS,
  STUDY_DESIGNS,
  isAgentDesign,
  isEngineered,
} from "./registry.ts";
export { type ParsedReply, parseCalls } from "./parse-calls.ts";
export { runDesign } from "./run-design.ts";
export { dialectExample } from "./study-example.ts";
export { modelThinking } from "./thinking.ts";
export { toolBlockSize } from "./tool-block.ts";
export { AGENT_TOOLS, type BlogIndex, READ_SECTION_MAX_WORDS } from "./tools.ts";
export { costTableText, transcriptCostTable } from "./transcript-cost.ts";
export {
  type ModelCall,
  outcomeSchema,
  type Transcript,
  transcriptSchema,
  VALIDATION_KINDS,
  type ValidationKind,
} from "./transcript.ts";
export { WITHHOLD_MODES, withheldIndex } from "./withheld-index.ts";
export * as prompts from "./prompts.ts";
export { BUILTIN_WORDINGS } from "./builtin-wordings.ts";
export { DEFAULT_WORDING, DEFAULT_WORDING_ID, parseWordings, type Wording } from "./wording.ts";
export { loggedCallRequest } from "./logged-request.ts";
