// What other stages and the commands may use from the study.
export * from "./types.ts";
export { runAgent, studySteps, MAX_TURNS, type AgentDesign, type LoopSteps } from "./agent-loop.ts";
export { runEngineered, FIRST_CALL_CONSTRAINT } from "./engineered/designs.ts";
export { validateCall, validatedToolCall, type ValidationError } from "./engineered/validate-call.ts";
export { citeChecked, sourceProblem, seenPosts } from "./engineered/cite-check.ts";
export { toolBlockSize, type ToolBlockSize } from "./tool-block.ts";
export { runWorkflow, WORKFLOW_HITS } from "./workflow.ts";
export {
  AGENT_TOOLS,
  SEARCH_POSTS,
  READ_SECTION,
  READ_SECTION_MAX_WORDS,
  runToolCall,
  type BlogIndex,
} from "./tools.ts";
export { parseCalls, type ParsedCall, type ParsedReply } from "./parse-calls.ts";
export * as prompts from "./prompts.ts";
export { STUDY_EXAMPLE, EXAMPLE_MESSAGES, dialectExample } from "./study-example.ts";
export { answerRecord } from "./answer-record.ts";
export { ANSWERS_FILE, readAnswerLog, locateAnswerLog, tornLineNotice, runKey, type AnswerLog } from "./answer-log.ts";
export { answerFromLine, onePostLineShape, twoPostLineShape } from "./answer-line.ts";
export { runStudy, type RunnerSettings, type RunStudyOptions, type StudyRunSummary } from "./runner.ts";
export {
  SETTING_OPTIONS,
  STUDY_MAX_NEW_TOKENS,
  defaultSettings,
  settingsFromArgs,
  settingFields,
  settingsFromFields,
  modelLoadOptions,
  settingsForModel,
  modelEntryFields,
  type ModelEntry,
  type ModelEntryFields,
  type RunSettings,
  type SettingFields,
} from "./settings.ts";
export {
  transcriptCostTable,
  transcriptCost,
  STUDY_TURNS,
  type CostRow,
  type CostAssumptions,
} from "./transcript-cost.ts";
export {
  MANIFEST_FILE,
  MANIFEST_SCHEMA_VERSION,
  readManifest,
  writeManifestFile,
  newManifest,
  manifestSettings,
  manifestConflicts,
  modelConflicts,
  decodingChange,
  promptsSha256,
  type RunSelection,
  type RunManifest,
  type ManifestInputs,
  type ManifestModel,
  type ManifestSettings,
  type ManifestSession,
} from "./manifest.ts";
export { startManifest, type ManifestWriter, type ManifestSessionOptions } from "./manifest-session.ts";
export { cachedSha256, type FileDigest } from "./file-sha256.ts";
export {
  auditRuns,
  auditText,
  firstDifference,
  type AuditOptions,
  type AuditResult,
  type AuditedRun,
  type TranscriptDifference,
} from "./audit.ts";
export {
  DIALECTS,
  TOOL_FORMATS,
  detectDialect,
  dialectOf,
  modelDialect,
  resolveDialect,
  foreignCallReplies,
  looksForeign,
  type RunFormat,
  type ToolDialect,
  type ToolFormat,
} from "./dialects/index.ts";
export { templateThinks, withoutThinking, modelThinking } from "./thinking.ts";
export { engineeredNeedsHermes } from "./run-design.ts";
export { SUITES, SUITE_NAMES, suiteModels, type Suite, type SuiteModel } from "./suites.ts";
export { readModelsFile } from "./models-file.ts";
