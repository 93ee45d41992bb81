// Which logged runs are scored: a run whose model call failed has no answer to score, so it is left out and counted.
import type { AnswerRecord } from "../runs/index.ts";

/** A log split once, before any scorer sees it: every rate is over `scored`; `failed` is only ever counted. */
interface SplitLog<R extends AnswerRecord = AnswerRecord> {
  readonly scored: readonly R[];
  readonly failed: readonly R[];
}

/** The one rule: outcome "error" (an HTTP error past the retries, a context overflow, a refused prompt) is not an answer. */
export function splitFailed<R extends AnswerRecord>(records: readonly R[]): SplitLog<R> {
  return {
    scored: records.filter((r) => r.outcome !== "error"),
    failed: records.filter((r) => r.outcome === "error"),
  };
}

/**
 * "2 runs left out: their model call failed (outcome error)", printed under a table; undefined when none failed.
 * Runs whose prompt did not fit the context are counted apart: a larger --context-size would answer them.
 */
export function leftOutNote(failed: readonly unknown[]): string | undefined {
  const n = failed.length;
  if (n === 0) return undefined;
  const overflowed = failed.filter(promptDidNotFit).length;
  const runs = (k: number) => (k === 1 ? "1 run" : `${k} runs`);
  if (overflowed === 0)
    return n === 1
      ? "1 run left out: its model call failed (outcome error)"
      : `${n} runs left out: their model call failed (outcome error)`;
  const fit = `${runs(overflowed)} whose prompt did not fit the context (context-overflow: a larger --context-size answers ${overflowed === 1 ? "it" : "them"})`;
  return overflowed === n
    ? `${runs(n)} left out: ${fit}`
    : `${runs(n)} left out (outcome error): ${fit}, ${runs(n - overflowed)} whose model call failed otherwise`;
}

/** A failed run whose last call stopped because its prompt did not fit the context. */
function promptDidNotFit(run: unknown): boolean {
  const calls = (run as { transcript?: { calls?: readonly { record?: { stopReason?: string } }[] } }).transcript?.calls;
  return calls?.at(-1)?.record?.stopReason === "context-overflow";
}
