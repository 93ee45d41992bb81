// Turns repeated samples of each mode into the benchmark's rows: medians, rates, ratios against naive.
import type { Mode, ModeSample } from "./run-mode.ts";
import { median, overheadFraction } from "./stats.ts";

/** One row of the table and of --json (snake_case: the format users read). */
export interface BenchRow {
  readonly mode: string;
  readonly parallel: number;
  readonly tokens_read: number;
  readonly tokens_evaluated: number;
  readonly agent_tokens_read: number;
  readonly agent_tokens_evaluated: number;
  readonly tokens_generated: number;
  readonly seconds: number;
  readonly tokens_per_second: number;
  /** Generated tokens per second over naive's, both medians of this benchmark run. */
  readonly speedup: number;
  /** Median fraction of wall time during which no model call ran. */
  readonly overhead: number;
  /** Runs whose answer differs from naive's first repeat, at most over this mode's repeats. */
  readonly answers_changed: number;
  /** Runs that ended on a call the server refused, at most over this mode's repeats (0 in process). */
  readonly refused_runs: number;
}

/** Rows in the order of `modes`; samples[i] are the repeats of modes[i], and modes[0] must be naive. */
export function benchRows(modes: readonly Mode[], samples: readonly (readonly ModeSample[])[]): BenchRow[] {
  const reference = samples[0]?.[0];
  if (reference === undefined) throw new Error("no naive sample");
  const rate = (s: ModeSample) => s.tokensGenerated / s.seconds;
  const naiveRate = median(samples[0]!.map(rate));
  return modes.map((mode, i) => {
    const runs = samples[i]!;
    const m = (f: (s: ModeSample) => number) => median(runs.map(f));
    const tokensPerSecond = m(rate);
    return {
      mode: mode.name,
      parallel: mode.parallel,
      tokens_read: m((s) => s.tokensRead),
      tokens_evaluated: m((s) => s.tokensEvaluated),
      agent_tokens_read: m((s) => s.agentTokensRead),
      agent_tokens_evaluated: m((s) => s.agentTokensEvaluated),
      tokens_generated: m((s) => s.tokensGenerated),
      seconds: m((s) => s.seconds),
      tokens_per_second: tokensPerSecond,
      speedup: tokensPerSecond / naiveRate,
      overhead: m((s) => overheadFraction(s.seconds, s.busySeconds)),
      answers_changed: Math.max(...runs.map((s) => changedAnswers(reference.answers, s.answers))),
      refused_runs: Math.max(...runs.map((s) => s.refusedRuns)),
    };
  });
}

/** Runs (keys of the reference) whose answer differs or is missing. */
export function changedAnswers(reference: ReadonlyMap<string, string>, answers: ReadonlyMap<string, string>): number {
  let changed = 0;
  for (const [key, answer] of reference) if (answers.get(key) !== answer) changed++;
  return changed;
}
