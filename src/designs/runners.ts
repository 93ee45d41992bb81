// How each design runs: its id to its runner. The registry (registry.ts) holds the designs as data; this table
// loads the agent loop, the workflow and the engineered steps, so only a run reaches it (through run-design.ts).
import type { ChatRuntime } from "../llm/index.ts";
import type { ToolDialect } from "../toolcalls/index.ts";
import { runAgent } from "./agent-loop.ts";
import { citeCheckedAgent, citeCheckedWorkflow, constrainedAgent, validatedAgent } from "./engineered/designs.ts";
import type { DesignId } from "./registry.ts";
import type { BlogIndex } from "./tools.ts";
import type { Transcript } from "./transcript.ts";
import type { Wording } from "./wording.ts";
import { runWorkflow } from "./workflow.ts";

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

/** Each design's runner; the type asks for one per registry entry. */
const RUNNERS: Readonly<Record<DesignId, (run: DesignRun) => Promise<Transcript>>> = {
  workflow: runWorkflow,
  agent: (run) => runAgent({ ...run, design: "agent" }),
  "agent-search-first": (run) => runAgent({ ...run, design: "agent-search-first" }),
  "agent-forced": (run) => runAgent({ ...run, design: "agent-forced" }),
  "agent-validated": validatedAgent,
  "agent-cite-checked": citeCheckedAgent,
  "workflow-cite-checked": citeCheckedWorkflow,
  "agent-constrained": constrainedAgent,
};

/**
 * One run of one design on one question. Whether the design can run in the run's format is the run recipe's to
 * decide (runs/recipe.ts), once for all of a model's runs.
 */
export function runDesign(design: DesignId, run: DesignRun): Promise<Transcript> {
  return RUNNERS[design](run);
}
