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

/** "2 runs left out: their model call failed (outcome error)", printed under a table; undefined when none failed. */
export function leftOutNote(failed: readonly unknown[]): string | undefined {
  const n = failed.length;
  if (n === 0) return undefined;
  return n === 1
    ? "1 run left out: its model call failed (outcome error)"
    : `${n} runs left out: their model call failed (outcome error)`;
}
