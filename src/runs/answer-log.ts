// answers.jsonl: one line per finished run, appended as each finishes, read back (and checked) for resuming and scoring.
import { appendFileSync, closeSync, existsSync, openSync, statSync, truncateSync, writeSync } from "node:fs";
import path from "node:path";
import { fsUserError, readLines, UserError, writeThroughTemp } from "../common/index.ts";
import { answerFromLine } from "./answer-line.ts";
import type { AnswerRecord } from "./answer-types.ts";
import { DEFAULT_WORDING_ID } from "../designs/index.ts";

export const ANSWERS_FILE = "answers.jsonl";

/**
 * The longest line read (64 MiB). A record holds a few calls' replies, each at most the server client's 4 MiB; a
 * longer line is corrupt, and the file is read line by line so that no log has to fit in one string.
 */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface AnswerLog {
  readonly records: readonly AnswerRecord[];
  /** Each record's line in the file (1-based), for messages naming FILE:LINE. */
  readonly lineNumbers: readonly number[];
  /** Bytes of complete lines; anything after is a line torn by an interrupted write. */
  readonly completeBytes: number;
  /** The torn last line's number (1-based), when the file does not end with a newline. */
  readonly tornLine: number | undefined;
}

/** What names one run: a model, a design, a question, and beyond the study a wording and a sample. */
export interface RunIdentity {
  readonly model: string;
  readonly design: string;
  readonly question_id: string;
  /** Absent: the default wording, as in every log written before wordings. */
  readonly wording?: string;
  /** Absent: sample 0, as in every log written before samples. */
  readonly sample?: number;
}

/** The identity of one run: a model, a design, a question, a wording and a sample (absent ones their defaults). */
export function runKey(r: RunIdentity): string {
  return JSON.stringify([r.model, r.design, r.question_id, r.wording ?? DEFAULT_WORDING_ID, r.sample ?? 0]);
}

/** How a message names a run: its model, design and question, then its wording and sample where not the defaults. */
export function describeRunIdentity(r: RunIdentity): string {
  const wording = r.wording !== undefined && r.wording !== DEFAULT_WORDING_ID ? `, wording ${r.wording}` : "";
  const sample = r.sample !== undefined && r.sample !== 0 ? `, sample ${r.sample}` : "";
  return `model ${r.model}, design ${r.design}, question ${r.question_id}${wording}${sample}`;
}

/**
 * The one reader of a log, for the runner and every command that scores one. Blank lines are skipped. A last line
 * without its newline is a torn write: it is not counted (`tornLine` says so, for a notice). Any other line that is
 * not a valid record, or that repeats a (model, design, question, wording, sample), stops with FILE:LINE and the field, because
 * counting it, or leaving it out, would change the numbers without a word; the one repeat allowed is a later line
 * for a run whose earlier line ended in a call error (outcome "error"), which a resume retried: the later line
 * counts. A missing file is an empty log.
 */
export function readAnswerLog(file: string): AnswerLog {
  if (!existsSync(file)) return { records: [], lineNumbers: [], completeBytes: 0, tornLine: undefined };
  const records: AnswerRecord[] = [];
  const lineNumbers: number[] = [];
  const indexOf = new Map<string, number>();
  const problems: string[] = [];
  const read = readLines(
    file,
    { maxLineBytes: MAX_LINE_BYTES },
    (line, n) => {
      if (line.trim() === "") return;
      const parsed = parseLine(line);
      if (typeof parsed === "string") {
        problems.push(`${file}:${n}: ${parsed}`);
        return;
      }
      const key = runKey(parsed);
      const earlier = indexOf.get(key);
      // A resume retries a run whose model call failed and appends its new line: that line supersedes the error.
      if (earlier !== undefined && records[earlier]!.outcome === "error") {
        records[earlier] = parsed;
        lineNumbers[earlier] = n;
        return;
      }
      if (earlier !== undefined) {
        problems.push(
          `${file}:${n}: a second line for ${describeRunIdentity(parsed)} ` +
            `(first on line ${lineNumbers[earlier]}); a run counts once: remove one of the two lines`,
        );
        return;
      }
      indexOf.set(key, records.length);
      records.push(parsed);
      lineNumbers.push(n);
    },
    (n) => {
      throw new UserError(
        `${file}:${n}: the line is longer than ${MAX_LINE_BYTES} bytes (64 MiB), more than any answer line; ` +
          "the log is corrupt here: fix or remove that line",
      );
    },
  );
  if (problems.length > 0) {
    const more =
      problems.length > 1 ? ` (and ${problems.length - 1} more bad line${problems.length > 2 ? "s" : ""})` : "";
    throw new UserError(`${problems[0]}${more}`);
  }
  const { completeBytes, lines, tornBytes } = read;
  return { records, lineNumbers, completeBytes, tornLine: tornBytes > 0 ? lines + 1 : undefined };
}

/** A problem with the line, or its record. */
function parseLine(line: string): AnswerRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "not a JSON line; the log is corrupt here: fix or remove that line";
  }
  const result = answerFromLine(value);
  if ("record" in result) return result.record;
  const { path: field, problem } = result.mismatch;
  const where = field === "" ? "" : `field ${field}: `;
  return `${where}${problem}; not a blogqa answer line: fix or remove that line`;
}

/** What a reader says about a torn last line, or undefined when there is none. */
export function tornLineNotice(file: string, log: AnswerLog): string | undefined {
  if (log.tornLine === undefined) return undefined;
  return `${file}:${log.tornLine}: the last line is torn (no newline at its end: an interrupted write); it is not counted, and resuming the run redoes it`;
}

/**
 * `target` is a run folder or an answers.jsonl; returns both, or says plainly what is missing. For the commands
 * that read a finished log (rescore, compare, report, audit), where a missing log is an error, not an empty one.
 */
export function locateAnswerLog(target: string): { readonly dir: string; readonly file: string } {
  if (!existsSync(target))
    throw new UserError(`${target}: no such file or folder (give a run folder or its ${ANSWERS_FILE})`);
  if (!statSync(target).isDirectory()) return { dir: path.dirname(target), file: target };
  const file = path.join(target, ANSWERS_FILE);
  if (!existsSync(file))
    throw new UserError(`${target}: no ${ANSWERS_FILE} here (is this a run folder? see \`run --out\`)`);
  if (statSync(file).isDirectory()) throw new UserError(`${file} is a folder; a run's log is a file: move it away`);
  return { dir: target, file };
}

/** Cuts a torn last line off so that appending continues on a line boundary. */
export function dropTornTail(file: string, log: Pick<AnswerLog, "completeBytes" | "tornLine">): void {
  if (log.tornLine !== undefined) truncateSync(file, log.completeBytes);
}

export function appendAnswer(file: string, record: AnswerRecord): void {
  try {
    appendFileSync(file, `${JSON.stringify(record)}\n`);
  } catch (error) {
    // A line cut short by a full disk is a torn tail: the next run cuts it off and redoes that run.
    throw fsUserError(error, file, ". The runs that finished are logged: run the same command again to resume");
  }
}

/**
 * Rewrites the log with its lines stably sorted by `rank` of each line's run, byte for byte as they were written, and
 * in place atomically (a kill mid-rewrite leaves the old file). Stable, so a retried run's line stays after the
 * error it supersedes; a log already in order is left alone. Parallel runs write each result as it is done, and
 * this puts the log back in plan order once they have finished, so that it is the same whatever the parallelism.
 */
export function sortAnswerLog(file: string, rank: (run: RunIdentity) => number): void {
  if (!existsSync(file)) return;
  const lines: { readonly text: string; readonly rank: number }[] = [];
  readLines(
    file,
    { maxLineBytes: MAX_LINE_BYTES },
    (text) => {
      if (text.trim() !== "") lines.push({ text, rank: rank(JSON.parse(text) as RunIdentity) });
    },
    (n) => {
      throw new UserError(
        `${file}:${n}: the line is longer than ${MAX_LINE_BYTES} bytes (64 MiB): the log is corrupt here`,
      );
    },
  );
  if (lines.every((line, i) => i === 0 || lines[i - 1]!.rank <= line.rank)) return;
  const sorted = lines.map((line, i) => ({ ...line, i })).sort((a, b) => a.rank - b.rank || a.i - b.i);
  try {
    writeThroughTemp(file, (temp) => {
      const fd = openSync(temp, "w");
      try {
        for (const line of sorted) writeSync(fd, `${line.text}\n`);
      } finally {
        closeSync(fd);
      }
    });
  } catch (error) {
    throw fsUserError(error, file, ". The runs are logged, in the order they finished: every command reads them so");
  }
}
