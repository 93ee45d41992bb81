// How long a run will take: the plan's expected calls and tokens at the speeds a warm-up measured on this device.
import type { SpeedSample } from "../llm/index.ts";
import type { DesignId } from "../designs/index.ts";
import { formatDuration } from "../common/index.ts";

/** A run's expected work: model calls, and prompt tokens read over all of them. */
export interface ExpectedLoad {
  readonly calls: number;
  readonly tokensRead: number;
}

/**
 * Per run (one question), the study's published averages (docs/the-study.md, "Published figures"), the larger of
 * its two models' for each design: model calls, and tokens read (every call's prompt, summed).
 */
const STUDY_LOADS: Readonly<Partial<Record<DesignId, ExpectedLoad>>> = {
  workflow: { calls: 1.0, tokensRead: 427 },
  agent: { calls: 1.2, tokensRead: 428 },
  "agent-search-first": { calls: 1.4, tokensRead: 624 },
  "agent-forced": { calls: 2.0, tokensRead: 1030 },
};
/** A design the study did not run counts as its costliest (the forced agent's). */
const OTHER_LOAD = STUDY_LOADS["agent-forced"]!;

export function expectedLoad(design: DesignId): ExpectedLoad {
  return STUDY_LOADS[design] ?? OTHER_LOAD;
}

/** Where expectedLoad's figures come from, as the estimate line says it. */
export const LOAD_SOURCE =
  "calls and tokens read per run from the study's published figures per design (docs/the-study.md), each reply " +
  "at --max-new-tokens";

/**
 * Seconds for `runs` of each design at the measured speeds: every prompt token evaluated (a reused KV cache
 * evaluates fewer) and every reply at maxNewTokens (replies that end early take less), so an upper bound of the
 * plan's expected work. `scale`: how much slower than the measured model (a larger model's file over the measured
 * one's).
 */
export function estimateSeconds(
  runs: readonly { readonly design: DesignId; readonly runs: number }[],
  speed: Pick<SpeedSample, "promptTokensPerSecond" | "decodeTokensPerSecond">,
  maxNewTokens: number,
  scale = 1,
): number {
  let seconds = 0;
  for (const { design, runs: n } of runs) {
    const load = expectedLoad(design);
    seconds +=
      n * (load.tokensRead / speed.promptTokensPerSecond + (load.calls * maxNewTokens) / speed.decodeTokensPerSecond);
  }
  return seconds * scale;
}

/** The warm-up's line: "warm-up on M: prompt 1,234 tokens/s, decode 45.6 tokens/s (256-token prompt, 16 new tokens)". */
export function warmUpLine(model: string, speed: SpeedSample): string {
  const rate = (x: number) => (x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toFixed(1));
  return (
    `warm-up on ${model}: prompt ${rate(speed.promptTokensPerSecond)} tokens/s, decode ` +
    `${rate(speed.decodeTokensPerSecond)} tokens/s (a ${speed.promptTokens}-token prompt, ${speed.decodeTokens} new tokens)`
  );
}

/** The run's CPU warning: said when the whole run is on the CPU and its estimate is an hour or more; else undefined. */
export function cpuHoursNote(backend: string, seconds: number): string | undefined {
  if (backend !== "cpu" || seconds < 3600) return undefined;
  return (
    `note: this run is on the CPU and will take hours: at most ${formatDuration(seconds)} by the warm-up; on a GPU ` +
    "the study takes minutes (docs/models.md says what each machine needs)"
  );
}
