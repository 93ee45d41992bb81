// The one list of designs: each entry's id, label, chart mark, the study design it extends, and how it runs.
// Tables, charts, --designs groups and the manifest's prompt hash all read it; a new design is one entry here.
import type { ChatRuntime } from "../llm/index.ts";
import type { ToolDialect } from "../toolcalls/index.ts";
import { runAgent } from "./agent-loop.ts";
import { citeCheckedAgent, citeCheckedWorkflow, constrainedAgent, validatedAgent } from "./engineered/designs.ts";
import type { BlogIndex } from "./tools.ts";
import type { Transcript } from "./transcript.ts";
import type { Wording } from "./wording.ts";
import { runWorkflow } from "./workflow.ts";
import { agentSystemPrompt, FORCED_PREFIX, WORKFLOW_SYSTEM_PROMPT } from "./prompts.ts";

/** The study's four designs, run as it ran them. */
export type StudyDesignId = "workflow" | "agent" | "agent-search-first" | "agent-forced";
/** Beyond the study: each extends one study design with one piece of engineering (see src/designs/engineered/). */
export type EngineeredDesignId =
  | "agent-validated"
  | "agent-cite-checked"
  | "workflow-cite-checked"
  | "agent-constrained";
export type DesignId = StudyDesignId | EngineeredDesignId;

/** What one run of a design is given: the question, the model, the blog's index and how the model writes calls. */
export interface DesignRun {
  readonly question: string;
  readonly runtime: ChatRuntime;
  readonly index: BlogIndex;
  /** The model's tool-call format (the study's hermes when absent). */
  readonly dialect?: ToolDialect;
  /** The model's template knows thinking: <think> blocks are kept out of answers and calls. */
  readonly thinks?: boolean;
  /** The texts to send (the study's when absent). */
  readonly wording?: Wording;
}

export interface DesignEntry {
  /** What tables, the report and --help call it. */
  readonly label: string;
  /** Its letter(s) on the charts. */
  readonly mark: string;
  /** An engineered design: the study design it adds one step to (the paired tests compare the two). */
  readonly extends?: StudyDesignId;
  readonly run: (run: DesignRun) => Promise<Transcript>;
  /**
   * The design's own texts that the manifest's prompts_sha256 covers, so that a folder's answers are never resumed
   * under other prompts. Adding texts here changes the hash of every later run, so old folders refuse to resume.
   */
  readonly prompts?: readonly string[];
}

/** Every design a log may hold, the study's first: tables list them in this order. */
export const DESIGNS: Readonly<Record<StudyDesignId, DesignEntry> & Record<EngineeredDesignId, DesignEntry>> = {
  workflow: { label: "one retrieval, one answer", mark: "W", run: runWorkflow, prompts: [WORKFLOW_SYSTEM_PROMPT] },
  agent: {
    label: "agent loop",
    mark: "A",
    run: (run) => runAgent({ ...run, design: "agent" }),
    prompts: [agentSystemPrompt("agent")],
  },
  "agent-search-first": {
    label: "agent, 'always search first'",
    mark: "S",
    run: (run) => runAgent({ ...run, design: "agent-search-first" }),
    prompts: [agentSystemPrompt("agent-search-first")],
  },
  // Its system prompt is the agent's; its own text is the forced call's prefix.
  "agent-forced": {
    label: "agent, first call forced",
    mark: "F",
    run: (run) => runAgent({ ...run, design: "agent-forced" }),
    prompts: [FORCED_PREFIX],
  },
  // The engineered designs run on the study's hermes format only (run-design.ts refuses the others).
  "agent-validated": {
    label: "agent, validated calls",
    mark: "V",
    extends: "agent-forced",
    run: validatedAgent,
  },
  "agent-cite-checked": {
    label: "agent, citation checked",
    mark: "C",
    extends: "agent-forced",
    run: citeCheckedAgent,
  },
  "workflow-cite-checked": {
    label: "one retrieval, citation checked",
    mark: "WC",
    extends: "workflow",
    run: citeCheckedWorkflow,
  },
  "agent-constrained": {
    label: "agent, constrained first call",
    mark: "G",
    extends: "agent-forced",
    run: constrainedAgent,
  },
};

export const DESIGN_IDS = Object.keys(DESIGNS) as readonly DesignId[];
export const STUDY_DESIGNS = DESIGN_IDS.filter((d) => DESIGNS[d].extends === undefined) as readonly StudyDesignId[];
export const ENGINEERED_DESIGNS = DESIGN_IDS.filter(isEngineered);
export const DESIGN_LABELS = labelled((d) => DESIGNS[d].label);
export const DESIGN_MARKS = labelled((d) => DESIGNS[d].mark);
/** The study design each engineered design adds to. */
export const EXTENDS = Object.fromEntries(ENGINEERED_DESIGNS.map((d) => [d, DESIGNS[d].extends!])) as Readonly<
  Record<EngineeredDesignId, StudyDesignId>
>;

function labelled(of: (d: DesignId) => string): Readonly<Record<DesignId, string>> {
  return Object.fromEntries(DESIGN_IDS.map((d) => [d, of(d)])) as Record<DesignId, string>;
}

export function isEngineered(design: DesignId): design is EngineeredDesignId {
  return DESIGNS[design].extends !== undefined;
}

/** Whether a design runs the tool loop: every one but the workflow and the designs that extend it. */
export function isAgentDesign(design: DesignId): boolean {
  return (DESIGNS[design].extends ?? design) !== "workflow";
}
