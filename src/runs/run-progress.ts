// How far a run still going has got: the runs its latest session planned and how many of them are logged.
import type { AnswerRecord } from "./answer-types.ts";
import type { RunManifest } from "./manifest.ts";
import { runLockHeld } from "./run-lock.ts";

export interface RunProgress {
  /** Runs of the session's plan logged so far. */
  readonly done: number;
  /** Its models x designs x questions (the first --limit of them). */
  readonly planned: number;
}

/**
 * The latest session's progress, counted from the log: each (model, design, question) of its selection once. Pure;
 * `runInProgress` is the same for a folder whose lock is held.
 */
export function sessionProgress(manifest: RunManifest, records: readonly AnswerRecord[]): RunProgress | undefined {
  const session = manifest.sessions[manifest.sessions.length - 1];
  if (session === undefined) return undefined;
  const questions = Math.min(session.limit ?? manifest.questions.count, manifest.questions.count);
  const planned = session.models.length * session.designs.length * questions;
  const models = new Set(session.models);
  const designs = new Set<string>(session.designs);
  const logged = new Set(
    records
      .filter((r) => models.has(r.model) && designs.has(r.design))
      .map((r) => JSON.stringify([r.model, r.design, r.question_id])),
  );
  return { done: Math.min(logged.size, planned), planned };
}

/** A run folder's progress while another process holds its lock and has runs left; undefined otherwise. */
export function runInProgress(
  dir: string,
  manifest: RunManifest | undefined,
  records: readonly AnswerRecord[],
): RunProgress | undefined {
  if (manifest === undefined || !runLockHeld(dir)) return undefined;
  const progress = sessionProgress(manifest, records);
  return progress !== undefined && progress.done < progress.planned ? progress : undefined;
}

/** "in progress: 63 of 240 runs", the words the page, the tables and stderr use. */
export function progressNotice(progress: RunProgress): string {
  return `in progress: ${progress.done} of ${progress.planned} runs (the run writing this folder has not finished; these numbers are partial)`;
}
