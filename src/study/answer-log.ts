// answers.jsonl: one line per finished run, appended as each finishes, read back for resuming and scoring.
import { appendFileSync, existsSync, readFileSync, truncateSync } from "node:fs";
import { UserError } from "../errors.ts";
import { ANSWER_SCHEMA_VERSION, type AnswerRecord } from "./types.ts";

export const ANSWERS_FILE = "answers.jsonl";

export interface AnswerLog {
  readonly records: readonly AnswerRecord[];
  /** Bytes of complete lines; anything after is a line torn by an interrupted write. */
  readonly completeBytes: number;
  readonly tornTail: boolean;
}

/** The identity of one run: a model, a design, a question. */
export function runKey(r: { readonly model: string; readonly design: string; readonly question_id: string }): string {
  return JSON.stringify([r.model, r.design, r.question_id]);
}

/**
 * Reads a log. A last line without its newline is a torn write and is dropped (and reported);
 * a bad line anywhere else is corruption and stops with its line number.
 */
export function readAnswerLog(file: string): AnswerLog {
  if (!existsSync(file)) return { records: [], completeBytes: 0, tornTail: false };
  const buffer = readFileSync(file);
  const lastNewline = buffer.lastIndexOf(0x0a);
  const completeBytes = lastNewline + 1;
  const lines = buffer.subarray(0, completeBytes).toString("utf8").split("\n").slice(0, -1);
  const records = lines.map((line, i) => parseLine(line, file, i + 1));
  return { records, completeBytes, tornTail: completeBytes < buffer.length };
}

function parseLine(line: string, file: string, lineNumber: number): AnswerRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new UserError(`${file}:${lineNumber}: not a JSON line; the log is corrupt (fix or remove that line)`);
  }
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (schema !== ANSWER_SCHEMA_VERSION) {
    throw new UserError(`${file}:${lineNumber}: log schema ${String(schema)}, this blogqa reads schema ${ANSWER_SCHEMA_VERSION}`);
  }
  return fromOlderFields(value as AnswerRecord & { variant?: AnswerRecord["design"] });
}

/** Logs written before the concept was called "design" carry it as `variant`: read them as they were meant. */
function fromOlderFields(record: AnswerRecord & { variant?: AnswerRecord["design"] }): AnswerRecord {
  if (record.design !== undefined || record.variant === undefined) return record;
  const { variant, ...rest } = record;
  return { ...rest, design: variant };
}

/** Cuts a torn last line off so that appending continues on a line boundary. */
export function dropTornTail(file: string, log: AnswerLog): void {
  if (log.tornTail) truncateSync(file, log.completeBytes);
}

export function appendAnswer(file: string, record: AnswerRecord): void {
  appendFileSync(file, `${JSON.stringify(record)}\n`);
}
