// The engineered designs: each is a study design with one piece of engineering added, composed from the study's
// own loop and workflow and one step of its own (validate-call.ts, cite-check.ts, or a constrained first reply).
import type { ChatRuntime, GenerateConstraint } from "../../llm/index.ts";
import { runAgent, studySteps } from "../agent-loop.ts";
import { runWorkflow } from "../workflow.ts";
import type { BlogIndex } from "../tools.ts";
import type { EngineeredDesignId } from "../design-ids.ts";
import type { Transcript } from "../transcript.ts";
import { citeChecked } from "./cite-check.ts";
import { validatedToolCall } from "./validate-call.ts";

/**
 * agent-constrained's first reply: one well-formed call of one of the two tools. Each argument is capped at 160
 * characters so that a call always closes within the study's 200 new tokens (a model that never writes the closing
 * quote would otherwise run out of tokens inside the string). subtle: a query longer than that is cut there; one
 * question of our 30 is 169 characters, so a model copying it whole into its search gets its first 160.
 */
export const FIRST_CALL_CONSTRAINT: GenerateConstraint = { kind: "tool-call", maxStringChars: 160 };

export function runEngineered(
  design: EngineeredDesignId,
  question: string,
  runtime: ChatRuntime,
  index: BlogIndex,
): Promise<Transcript> {
  const forced = studySteps("agent-forced");
  switch (design) {
    // The forced agent, every call validated before it runs.
    case "agent-validated":
      return runAgent(question, "agent-forced", runtime, index, { ...forced, runCall: validatedToolCall });
    // The forced agent, its answer's Source line checked and repaired once.
    case "agent-cite-checked":
      return runAgent(question, "agent-forced", runtime, index).then((t) => citeChecked(t, runtime, index));
    // The workflow, with the same check and repair.
    case "workflow-cite-checked":
      return runWorkflow(question, runtime, index).then((t) => citeChecked(t, runtime, index));
    // The forced agent, its first reply decoded under a grammar that admits only a well-formed call.
    case "agent-constrained":
      return runAgent(question, "agent-forced", runtime, index, {
        ...forced,
        firstReply: { ...forced.firstReply, constraint: FIRST_CALL_CONSTRAINT },
      });
  }
}
