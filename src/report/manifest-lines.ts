// Whether each line of a run folder's log is one the run its manifest.json records could have written.
import { readFileSync } from "node:fs";
import { parseQuestions } from "../corpus/index.ts";
import { DEFAULT_WORDING_ID } from "../designs/index.ts";
import { sha256Hex, UserError } from "../common/index.ts";
import { settingsFromFields, type AnswerRecord, type RunManifest } from "../runs/index.ts";

/**
 * Throws a UserError at the first line the manifest's run could not have written. A manifest copied from another run
 * would score the log against that run's blog: the log tells by a model the manifest never recorded (loaded or
 * selected), or a design none of its sessions selected. A log joined by hand from another run would be counted with
 * this one's: it tells by a sample past the manifest's --samples, a wording it does not record, or a question outside
 * its questions (not in the file it records, or past what its sessions' --limit ran).
 */
export function checkLogAgainstManifest(
  manifest: RunManifest,
  manifestFile: string,
  records: readonly AnswerRecord[],
  at: (i: number) => string,
): void {
  const models = new Set([...manifest.models.map((m) => m.id), ...manifest.sessions.flatMap((s) => s.models)]);
  const designs = new Set(manifest.sessions.flatMap((s) => s.designs));
  const copied = (what: string) =>
    `a run of ${what}, which ${manifestFile} never recorded: that manifest is not this log's (copied from another ` +
    "run?); put the run's own back, or remove it and name the blog with --content DIR";
  const joined = (what: string) =>
    `${what}: the run ${manifestFile} records never wrote this line (a log joined from another run?); remove the ` +
    "line, or put the run's own manifest back";
  const samples = settingsFromFields(manifest.settings).samples;
  const wordings = manifest.wordings?.texts.map((w) => w.id) ?? [DEFAULT_WORDING_ID];
  const wordingSet = new Set(wordings);
  const questions = questionSet(manifest);
  const seen = new Set<string>();
  for (const [i, r] of records.entries()) {
    if (!models.has(r.model)) throw new UserError(`${at(i)}: ${copied(`model ${r.model}`)}`);
    // A manifest written before any session was stamped says nothing of designs.
    if (designs.size > 0 && !designs.has(r.design)) throw new UserError(`${at(i)}: ${copied(`design ${r.design}`)}`);
    const sample = r.sample ?? 0;
    if (sample >= samples)
      throw new UserError(
        `${at(i)}: ${joined(`sample ${sample}, where --samples ${samples} logs 0 to ${samples - 1}`)}`,
      );
    const wording = r.wording ?? DEFAULT_WORDING_ID;
    if (!wordingSet.has(wording))
      throw new UserError(
        `${at(i)}: ${joined(`wording ${wording}, not one of its wordings (${wordings.join(", ")})`)}`,
      );
    const problem = questions.problem(r.question_id, seen);
    if (problem !== undefined) throw new UserError(`${at(i)}: ${joined(problem)}`);
    seen.add(r.question_id);
  }
}

/**
 * The questions the manifest's sessions ran: the first N of its questions file, N being the largest --limit (all
 * with none). The ids are checked where the file still holds the bytes the manifest hashed; elsewhere (a folder moved
 * away from it) only how many questions the log holds can be.
 */
function questionSet(manifest: RunManifest): {
  problem(id: string, seen: ReadonlySet<string>): string | undefined;
} {
  const { file, count } = manifest.questions;
  const ids = questionIds(file, manifest.questions.sha256);
  const last = manifest.sessions.at(-1);
  // Each session records the count after its own --limit, so the file's length is known only when the last cut none.
  const total = ids?.length ?? (last !== undefined && (last.limit === null || count < last.limit) ? count : undefined);
  const limits = manifest.sessions.map((s) => s.limit);
  // A manifest from before sessions were stamped says nothing of --limit.
  const largestLimit = limits.length === 0 || limits.includes(null) ? undefined : Math.max(...(limits as number[]));
  const bound = total === undefined ? largestLimit : largestLimit === undefined ? total : Math.min(total, largestLimit);
  const inFile = ids === undefined ? undefined : new Set(ids);
  const ran = ids === undefined ? undefined : new Set(bound === undefined ? ids : ids.slice(0, bound));
  return {
    problem(id, seen) {
      if (ran !== undefined && !ran.has(id))
        return inFile?.has(id)
          ? `question ${id}, past the first ${bound} questions of ${file}, the ones its sessions ran (--limit)`
          : `question ${id}, which ${file}, its questions file, does not hold`;
      if (bound !== undefined && !seen.has(id) && seen.size >= bound)
        return `question ${id}, question ${seen.size + 1} where it ran ${bound} (of ${file})`;
      return undefined;
    },
  };
}

/** The ids of the questions file, in its order; undefined when it is gone, unreadable or not the bytes `sha256` names. */
function questionIds(file: string, sha256: string): string[] | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (sha256Hex(bytes) !== sha256) return undefined;
  const { questions, problems } = parseQuestions(file, bytes.toString("utf8").replace(/^\uFEFF/, ""));
  return problems.length > 0 ? undefined : questions.map((q) => q.question.id);
}
