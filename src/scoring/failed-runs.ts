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
 * Runs whose prompt did not fit the context, and runs a server refused, are counted apart: a larger --context-size
 * would answer the first, and asking again would not change the second.
 */
export function leftOutNote(failed: readonly unknown[]): string | undefined {
  const n = failed.length;
  if (n === 0) return undefined;
  const runs = (k: number) => (k === 1 ? "1 run" : `${k} runs`);
  const them = (k: number) => (k === 1 ? "it" : "them");
  const overflowed = failed.filter((run) => lastStopReason(run) === "context-overflow").length;
  const refused = failed.filter((run) => lastStopReason(run) === "refused").length;
  const other = n - overflowed - refused;
  if (other === n)
    return n === 1
      ? "1 run left out: its model call failed (outcome error)"
      : `${n} runs left out: their model call failed (outcome error)`;
  const parts = [
    overflowed > 0
      ? `${runs(overflowed)} whose prompt did not fit the context (context-overflow: a larger --context-size answers ${them(overflowed)})`
      : undefined,
    refused > 0
      ? `${runs(refused)} whose last call the server refused (refused: the same request fails again, so a resume skips ${them(refused)})`
      : undefined,
    other > 0 ? `${runs(other)} whose model call failed otherwise` : undefined,
  ].filter((part): part is string => part !== undefined);
  return parts.length === 1
    ? `${runs(n)} left out: ${parts[0]}`
    : `${runs(n)} left out (outcome error): ${parts.join(", ")}`;
}

/** Why a failed run's last call stopped ("context-overflow", "refused", "error"), from its logged record. */
function lastStopReason(run: unknown): string | undefined {
  const calls = (run as { transcript?: { calls?: readonly { record?: { stopReason?: string } }[] } }).transcript?.calls;
  return calls?.at(-1)?.record?.stopReason;
}
