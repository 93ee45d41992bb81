// Turns repeated samples of each mode into the benchmark's rows: medians, rates, ratios against a table's first row.
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
  /** Generated tokens per second over the table's first row's (naive's, one sequence's), both medians of this run. */
  readonly speedup: number;
  /** Median fraction of wall time during which no model call ran. */
  readonly overhead: number;
  /** Runs whose answer differs from the first row's first repeat, at most over this mode's repeats. */
  readonly answers_changed: number;
  /** Runs that ended on a call the server refused, at most over this mode's repeats (0 in process). */
  readonly refused_runs: number;
}

/** Rows in the order of `modes`; samples[i] are the repeats of modes[i], and modes[0] is the reference (naive). */
export function benchRows(modes: readonly Mode[], samples: readonly (readonly ModeSample[])[]): BenchRow[] {
  const reference = samples[0]?.[0];
  if (reference === undefined) throw new Error("no sample of the reference mode");
  const rate = (s: ModeSample) => s.tokensGenerated / s.seconds;
  const referenceRate = median(samples[0]!.map(rate));
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
      speedup: tokensPerSecond / referenceRate,
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

/** One llama.cpp binary's row: the cache-reuse mode on one sequence, prompt evaluation and decoding timed apart. */
export interface BinaryRow {
  readonly binary: string;
  readonly tokens_evaluated: number;
  readonly prompt_seconds: number;
  readonly prompt_tokens_per_second: number;
  readonly decode_steps: number;
  readonly decode_seconds: number;
  readonly decode_tokens_per_second: number;
  readonly seconds: number;
  /** Runs whose answer differs from the first row's first repeat, at most over this row's repeats. */
  readonly answers_changed: number;
}

/** Rows in the given order; the first is the reference for answers changed. */
export function binaryRows(binaries: readonly { name: string; samples: readonly ModeSample[] }[]): BinaryRow[] {
  const reference = binaries[0]?.samples[0];
  if (reference === undefined) throw new Error("no sample of the reference binary");
  return binaries.map(({ name, samples }) => {
    const m = (f: (s: ModeSample) => number) => median(samples.map(f));
    return {
      binary: name,
      tokens_evaluated: m((s) => s.tokensEvaluated),
      prompt_seconds: m((s) => s.promptSeconds),
      prompt_tokens_per_second: m((s) => s.tokensEvaluated / s.promptSeconds),
      decode_steps: m((s) => s.decodeSteps),
      decode_seconds: m((s) => s.decodeSeconds),
      decode_tokens_per_second: m((s) => s.decodeSteps / s.decodeSeconds),
      seconds: m((s) => s.seconds),
      answers_changed: Math.max(...samples.map((s) => changedAnswers(reference.answers, s.answers))),
    };
  });
}

/** One --samples K run of a slice: how much prompt evaluation its runs needed. */
export interface SamplesRow {
  readonly samples: number;
  readonly runs: number;
  readonly tokens_read: number;
  readonly tokens_evaluated: number;
  readonly evaluated_per_run: number;
  /** evaluated_per_run over the first row's. */
  readonly per_run_ratio: number;
  readonly seconds: number;
}

/** Rows in the given order (one sample each: token counts do not depend on timing); the first is the reference. */
export function samplesRows(runs: readonly { samples: number; sample: ModeSample }[]): SamplesRow[] {
  const perRun = (s: ModeSample) => s.tokensEvaluated / s.runs;
  const reference = runs[0];
  if (reference === undefined) throw new Error("no samples run");
  return runs.map(({ samples, sample }) => ({
    samples,
    runs: sample.runs,
    tokens_read: sample.tokensRead,
    tokens_evaluated: sample.tokensEvaluated,
    evaluated_per_run: perRun(sample),
    per_run_ratio: perRun(sample) / perRun(reference.sample),
    seconds: sample.seconds,
  }));
}
