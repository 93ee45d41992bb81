// One run of one design on one question: the dispatch that the runner and the audit share.
import type { ChatRuntime } from "../llm/index.ts";
import { runAgent } from "./agent-loop.ts";
import { runEngineered } from "./engineered/designs.ts";
import type { BlogIndex } from "./tools.ts";
import { isEngineered, type Transcript, type DesignId } from "./types.ts";
import { runWorkflow } from "./workflow.ts";

export function runDesign(
  design: DesignId,
  question: string,
  runtime: ChatRuntime,
  index: BlogIndex,
): Promise<Transcript> {
  if (isEngineered(design)) return runEngineered(design, question, runtime, index);
  return design === "workflow" ? runWorkflow(question, runtime, index) : runAgent(question, design, runtime, index);
}

/** The runtime with a run's max-new-tokens setting applied to every call that does not set its own. */
export function withMaxTokens(runtime: ChatRuntime, maxTokens: number): ChatRuntime {
  return { generate: (request) => runtime.generate({ ...request, maxTokens: request.maxTokens ?? maxTokens }) };
}
