// The engineered designs: each is a study design with one piece of engineering added, composed from the study's
// own loop and workflow and one step of its own (validate-call.ts, cite-check.ts, or a constrained first reply).
// Each runs on the study's hermes format (the run recipe, runs/recipe.ts, refuses the others).
import type { GenerateConstraint } from "../../llm/index.ts";
import { runAgent, studySteps } from "../agent-loop.ts";
import { runWorkflow } from "../workflow.ts";
import type { DesignRun } from "../runners.ts";
import type { Transcript } from "../transcript.ts";
import { citeChecked } from "./cite-check.ts";
import { validatedToolCall } from "./validate-call.ts";
import { agentToolsFor, DEFAULT_WORDING } from "../wording.ts";

/**
 * agent-constrained's first reply: one well-formed call of one of the two tools, each argument at most 160 bytes,
 * and fewer where the call must close within the reply's token limit (the grammar shares what the limit leaves
 * among the call's strings: at the study's 200 new tokens, a query of 134 bytes or a post and heading of 60 each),
 * so a call always closes; a limit too short for any call is a call error. subtle: a longer query is cut there; one
 * question of our 30 is 169 characters, so a model copying it whole into its search gets its first 134.
 */
export const FIRST_CALL_CONSTRAINT: GenerateConstraint = { kind: "tool-call", maxStringChars: 160 };

/** The study's steps as the engineered designs start from them: the forced agent on hermes, no thinking. */
function forcedOn({ question, runtime, index, wording }: DesignRun) {
  return { question, runtime, index, wording, design: "agent-forced" as const };
}

/** The forced agent, every call validated before it runs. */
export async function validatedAgent(run: DesignRun): Promise<Transcript> {
  const steps = { ...studySteps("agent-forced"), runCall: validatedToolCall };
  const t = await runAgent({ ...forcedOn(run), steps });
  return { ...t, checks: [...(t.checks ?? []), "validate-calls"] };
}

/** The forced agent, its answer's Source line checked and repaired once. */
export async function citeCheckedAgent(run: DesignRun): Promise<Transcript> {
  return citeChecked(
    await runAgent(forcedOn(run)),
    run.runtime,
    run.index,
    agentToolsFor(run.wording ?? DEFAULT_WORDING),
  );
}

/** The workflow, with the same check and repair. */
export async function citeCheckedWorkflow({ question, runtime, index, wording }: DesignRun): Promise<Transcript> {
  return citeChecked(await runWorkflow({ question, runtime, index, wording }), runtime, index, []);
}

/** The forced agent, its first reply decoded under a grammar that admits only a well-formed call. */
export function constrainedAgent(run: DesignRun): Promise<Transcript> {
  const forced = studySteps("agent-forced");
  const firstReply = { ...forced.firstReply, constraint: FIRST_CALL_CONSTRAINT };
  return runAgent({ ...forcedOn(run), steps: { ...forced, firstReply } });
}
