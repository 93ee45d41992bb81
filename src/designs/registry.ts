// The one list of designs as data: each entry's id, label, chart mark, the study design it extends and the texts
// its prompts hash covers. Tables, charts, --designs groups, --help and the manifest read it without loading any
// runner; how each design runs is in runners.ts, loaded only when a run starts (run-design.ts).
import { agentSystemPrompt, FORCED_PREFIX, WORKFLOW_SYSTEM_PROMPT } from "./prompts.ts";

/** The study's four designs, run as it ran them. */
export type StudyDesignId = "workflow" | "agent" | "agent-search-first" | "agent-forced";

export interface DesignEntry {
  /** What tables, the report and --help call it. */
  readonly label: string;
  /** Its letter(s) on the charts. */
  readonly mark: string;
  /** An engineered design: the study design it adds one step to (the paired tests compare the two). */
  readonly extends?: StudyDesignId;
  /**
   * The design's own texts that the manifest's prompts_sha256 covers, so that a folder's answers are never resumed
   * under other prompts. Adding texts here changes the hash of every later run, so old folders refuse to resume.
   */
  readonly prompts?: readonly string[];
}

/** Every design a log may hold, the study's first: tables list them in this order. */
export const DESIGNS = {
  workflow: { label: "one retrieval, one answer", mark: "W", prompts: [WORKFLOW_SYSTEM_PROMPT] },
  agent: { label: "agent loop", mark: "A", prompts: [agentSystemPrompt("agent")] },
  "agent-search-first": {
    label: "agent, 'always search first'",
    mark: "S",
    prompts: [agentSystemPrompt("agent-search-first")],
  },
  // Its system prompt is the agent's; its own text is the forced call's prefix.
  "agent-forced": { label: "agent, first call forced", mark: "F", prompts: [FORCED_PREFIX] },
  // The engineered designs (src/designs/engineered/) run on the study's hermes format only (the run recipe refuses
  // the others).
  "agent-validated": { label: "agent, validated calls", mark: "V", extends: "agent-forced" },
  "agent-cite-checked": { label: "agent, citation checked", mark: "C", extends: "agent-forced" },
  "workflow-cite-checked": { label: "one retrieval, citation checked", mark: "WC", extends: "workflow" },
  "agent-constrained": { label: "agent, constrained first call", mark: "G", extends: "agent-forced" },
} as const satisfies Readonly<Record<StudyDesignId, DesignEntry> & Record<string, DesignEntry>>;

export type DesignId = keyof typeof DESIGNS;
/** Beyond the study: each extends one study design with one piece of engineering (see src/designs/engineered/). */
export type EngineeredDesignId = Exclude<DesignId, StudyDesignId>;

/** Entries as the interface reads them (an entry's literal type lacks the optional fields it does not set). */
const entries: Readonly<Record<DesignId, DesignEntry>> = DESIGNS;

export const DESIGN_IDS = Object.keys(DESIGNS) as readonly DesignId[];
export const STUDY_DESIGNS = DESIGN_IDS.filter((d) => entries[d].extends === undefined) as readonly StudyDesignId[];
export const ENGINEERED_DESIGNS = DESIGN_IDS.filter(isEngineered);
export const DESIGN_LABELS = labelled((d) => entries[d].label);
export const DESIGN_MARKS = labelled((d) => entries[d].mark);
/** The study design each engineered design adds to. */
export const EXTENDS = Object.fromEntries(ENGINEERED_DESIGNS.map((d) => [d, entries[d].extends!])) as Readonly<
  Record<EngineeredDesignId, StudyDesignId>
>;

function labelled(of: (d: DesignId) => string): Readonly<Record<DesignId, string>> {
  return Object.fromEntries(DESIGN_IDS.map((d) => [d, of(d)])) as Record<DesignId, string>;
}

export function isEngineered(design: DesignId): design is EngineeredDesignId {
  return entries[design].extends !== undefined;
}

/** Whether a design runs the tool loop: every one but the workflow and the designs that extend it. */
export function isAgentDesign(design: DesignId): boolean {
  return (entries[design].extends ?? design) !== "workflow";
}
