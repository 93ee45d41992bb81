// One run of one design on one question: the dispatch that every run recipe calls.
import type { ChatRuntime } from "../llm/index.ts";
import { UserError } from "../common/index.ts";
import type { ToolDialect } from "../toolcalls/index.ts";
import { DESIGNS, type DesignId, type DesignRun } from "./registry.ts";
import type { Transcript } from "./transcript.ts";

/**
 * One run of one design on one question. Whether the design can run in the run's format is the run recipe's to
 * decide (runs/recipe.ts), once for all of a model's runs: see engineeredNeedsHermes.
 */
export function runDesign(design: DesignId, run: DesignRun): Promise<Transcript> {
  return DESIGNS[design].run(run);
}

/** The engineered designs validate and constrain the study's own call format: on another they would judge wrongly. */
export function engineeredNeedsHermes(design: string, dialect: ToolDialect): UserError {
  if (dialect.format === "openai-chat")
    return new UserError(
      `The design ${design} validates or constrains calls blogqa parses itself, and in --server-mode chat the ` +
        "server parses them: run the study's designs, or use --server-mode completions.",
    );
  return new UserError(
    `The design ${design} works on the hermes tool-call format only, and this model's is ${dialect.format}: ` +
      "run the study's designs on it, or pass --tool-format hermes if its template really is Hermes-style.",
  );
}

/** The runtime with a run's max-new-tokens setting applied to every call that does not set its own. */
export function withMaxTokens(runtime: ChatRuntime, maxTokens: number): ChatRuntime {
  return { generate: (request) => runtime.generate({ ...request, maxTokens: request.maxTokens ?? maxTokens }) };
}
