// How a run decodes: whether its settings sample, with which values, the seed each run draws, and the runtimes that
// pass a run's max new tokens and its sampling on to every call.
import path from "node:path";
import { sha256Hex, UserError } from "../common/index.ts";
import { configSampling, isLocalModelId, type ChatRuntime, type Decoding, type SamplingValues } from "../llm/index.ts";
import { runKey, type RunIdentity } from "./answer-log.ts";
import { settingValueProblem, type RunSettings } from "./settings.ts";

type SamplingSettings = Pick<RunSettings, "samples" | "seed" | "sampling" | "temperature" | "topP" | "topK">;

/**
 * What a run's settings ask for: the study's greedy decoding, or sampling with the model's values and any given by
 * a flag on top. Refuses a combination that would not mean what it says (K greedy runs are one run K times).
 */
export type SamplingChoice =
  | { readonly kind: "greedy" }
  | { readonly kind: "sampled"; readonly given: Partial<Omit<SamplingValues, "note">> };

export function samplingChoice(s: SamplingSettings): SamplingChoice {
  // Usage errors (exit status 2): the values come from the command line, or from a manifest its schema checked.
  const refuse = (message: string) => new UserError(message, 2);
  for (const [key, value] of [
    ["samples", s.samples],
    ["seed", s.seed],
    ["temperature", s.temperature],
    ["top-k", s.topK],
    ["top-p", s.topP],
  ] as const) {
    const problem = settingValueProblem(key, value);
    if (problem !== undefined) throw refuse(problem);
  }
  const given = {
    ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
    ...(s.topK !== undefined ? { topK: s.topK } : {}),
    ...(s.topP !== undefined ? { topP: s.topP } : {}),
  };
  const named = Object.keys(given).length > 0;
  const kind = s.sampling === "auto" ? (s.samples > 1 || named ? "sampled" : "greedy") : s.sampling;
  if (kind === "greedy") {
    if (named)
      throw refuse("--temperature, --top-p and --top-k need sampling: drop --sampling greedy, or those values");
    if (s.samples > 1)
      throw refuse(
        "--samples above 1 with --sampling greedy would run one greedy pass K times: sample, or see `audit`",
      );
    return { kind };
  }
  return { kind: "sampled", given };
}

/** The values a model's runs sample with: its generation config's, with the flags' on top; undefined when greedy. */
export function modelSampling(
  choice: SamplingChoice,
  decoding: Pick<Decoding, "generationConfig">,
): SamplingValues | undefined {
  if (choice.kind === "greedy") return undefined;
  const own = configSampling(decoding);
  const merged = { ...own, ...choice.given };
  if (!(merged.temperature > 0))
    throw new UserError(`${own.note} gives temperature ${merged.temperature}: give --temperature above 0 to sample`);
  const flags = Object.keys(choice.given).length > 0 ? ", with the values given on the command line" : "";
  return { ...merged, note: `${own.note}${flags}` };
}

/**
 * The seed of one run: the first 32 bits of the sha256 of --seed and the run's key (model, design, question, wording,
 * sample), so that any one sample can be rerun alone, in any order, and gets the seed it had. A local model file counts
 * by its name, not its folder, so that the same file draws the same samples in any checkout or machine.
 */
export function runSeed(base: number, run: RunIdentity): number {
  const model = /\.gguf$/i.test(run.model) && isLocalModelId(run.model) ? path.basename(run.model) : run.model;
  return Number.parseInt(sha256Hex(JSON.stringify([base, runKey({ ...run, model })])).slice(0, 8), 16);
}

/**
 * The runtime sampling one run's calls: its n-th call (from 0) draws with seed + n (modulo 2^32), so that the
 * turns of an agent do not draw the same numbers, and a rerun of the run draws them again.
 */
export function withSampling(runtime: ChatRuntime, values: SamplingValues, seed: number): ChatRuntime {
  let calls = 0;
  const { temperature, topK, topP } = values;
  return {
    generate: (request) =>
      runtime.generate({ ...request, sampling: { temperature, topK, topP, seed: (seed + calls++) % 2 ** 32 } }),
  };
}

/** The runtime with a run's max-new-tokens setting applied to every call that does not set its own. */
export function withMaxTokens(runtime: ChatRuntime, maxTokens: number): ChatRuntime {
  return { generate: (request) => runtime.generate({ ...request, maxTokens: request.maxTokens ?? maxTokens }) };
}
