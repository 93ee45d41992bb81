// judgments.jsonl: the model judge's verdicts on a run folder's answers, one line per run judged with its whole
// exchange, appended as each judgment comes back and read back (and checked against answers.jsonl) to resume and score.
import { appendFileSync, existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  describeValue,
  field,
  fsUserError,
  readLines,
  schemaMismatch,
  sha256Hex,
  UserError,
  type Immutable,
} from "../common/index.ts";
import { DESIGN_IDS } from "../designs/index.ts";
import { describeRunIdentity, dropTornTail, runKey } from "./answer-log.ts";
import type { AnswerRecord } from "./answer-types.ts";
import { acquireRunLock } from "./run-lock.ts";

export const JUDGMENTS_FILE = "judgments.jsonl";
const JUDGMENT_SCHEMA_VERSION = 1;

/** The judge's verdict: the reply's first word was "yes" or "no", or it was neither. */
export const JUDGE_VERDICTS = ["supported", "unsupported", "unparsed"] as const;
export type JudgeVerdict = (typeof JUDGE_VERDICTS)[number];

const { arrayOf, count, nonNegative, object, oneOf, text } = field;

/** What the judge is asked, in the terms of a /chat/completions body; a server's body adds its runtime's fields. */
export const judgeRequestSchema = object({
  model: text,
  messages: arrayOf(object({ role: oneOf(["system", "user"]), content: text })),
  temperature: z.number({ error: "a number" }),
  max_tokens: count,
  seed: count,
  stream: oneOf([false]),
})
  .catchall(z.unknown())
  .describe(
    "On a server, the body sent to its /chat/completions, as sent: these fields and the fields every greedy request " +
      "of blogqa's server runtime carries (top_k 1, the repetition penalty 1, ...). In this process, these fields alone.",
  );

export const judgmentLineSchema = object({
  schema: oneOf([JUDGMENT_SCHEMA_VERSION]),
  model: text.describe("The run judged: its model, design and question, as on its answers.jsonl line."),
  design: oneOf(DESIGN_IDS),
  question_id: text,
  wording: text.optional(),
  sample: count.optional(),
  answer_sha256: text.describe("sha256 of the judged answer, so that a judgment of another answer is caught."),
  judge_model: text.describe("The judge's model id, as given to --judge-model: a server's model id, or a model file."),
  judge_url: text
    .nullable()
    .describe("The judge's base URL, without any user or password it carried; null when it ran in this process."),
  request: judgeRequestSchema,
  prompt: text
    .optional()
    .describe("In this process: the prompt the judge model read, its chat template applied; absent for a server."),
  reply: text
    .nullable()
    .describe(
      "The reply's text: a server's choices[0].message.content (empty where it sent null; older logs hold null " +
        "there), or the in-process model's, control tokens dropped.",
    ),
  response: z.unknown().describe("The server's whole answer, as JSON; null when the judge ran in this process."),
  verdict: oneOf(JUDGE_VERDICTS).describe(
    'From the reply\'s first word: "yes" supported, "no" unsupported; anything else unparsed (never guessed).',
  ),
  seconds: nonNegative,
}).describe("One line of judgments.jsonl: the model judge's verdict on one run's answer, with the whole exchange.");

export type JudgeRequest = Immutable<z.output<typeof judgeRequestSchema>>;
export type Judgment = Immutable<z.output<typeof judgmentLineSchema>>;

/** What a judgment line says besides the exchange: its schema, which run, and which answer of it. */
export function judgedRun(
  r: AnswerRecord,
): Pick<Judgment, "schema" | "model" | "design" | "question_id" | "wording" | "sample" | "answer_sha256"> {
  return {
    schema: JUDGMENT_SCHEMA_VERSION,
    model: r.model,
    design: r.design,
    question_id: r.question_id,
    ...(r.wording !== undefined ? { wording: r.wording } : {}),
    ...(r.sample !== undefined ? { sample: r.sample } : {}),
    answer_sha256: sha256Hex(r.answer),
  };
}

interface JudgmentLog {
  readonly judgments: readonly Judgment[];
  readonly completeBytes: number;
  readonly tornLine: number | undefined;
}

/** One judged run's line is a few kilobytes (a gold section, an answer, a short reply); a far longer line is corrupt. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Reads `file` (a missing one is empty) and checks it against the log it judged, `records`: a line that is not a
 * judgment, a second line for one run, a judgment of a run the log does not hold as answered or of another answer
 * than the log's, and judgments by more than one judge model each stop with FILE:LINE, since counting them would
 * change the judge's table without a word. A last line without its newline is a torn write: not counted.
 */
function readJudgmentLog(file: string, records: readonly AnswerRecord[]): JudgmentLog {
  if (!existsSync(file)) return { judgments: [], completeBytes: 0, tornLine: undefined };
  const answered = new Map(records.filter((r) => r.outcome !== "error").map((r) => [runKey(r), r]));
  const judgments: Judgment[] = [];
  const lineOf = new Map<string, number>();
  let judge: { model: string; line: number } | undefined;
  const fail = (n: number, problem: string): never => {
    throw new UserError(`${file}:${n}: ${problem}`);
  };
  const read = readLines(
    file,
    { maxLineBytes: MAX_LINE_BYTES },
    (line, n) => {
      if (line.trim() === "") return;
      const judgment = parseJudgment(line, (problem) => fail(n, problem));
      const key = runKey(judgment);
      const run = describeRunIdentity(judgment);
      const earlier = lineOf.get(key);
      if (earlier !== undefined)
        fail(n, `a second judgment of ${run} (first on line ${earlier}); a run is judged once: remove one of the two`);
      const record = answered.get(key);
      const again = "remove the line (or the file) and judge again";
      if (record === undefined)
        fail(n, `a judgment of ${run}, which the folder's answers.jsonl holds no answer of; ${again}`);
      else if (sha256Hex(record.answer) !== judgment.answer_sha256)
        fail(n, `a judgment of another answer of ${run} than the folder's answers.jsonl holds; ${again}`);
      if (judge === undefined) judge = { model: judgment.judge_model, line: n };
      else if (judgment.judge_model !== judge.model)
        fail(
          n,
          `judged by ${judgment.judge_model}, line ${judge.line} by ${judge.model}: a folder holds one judge's ` +
            "verdicts; remove the other's lines",
        );
      lineOf.set(key, n);
      judgments.push(judgment);
    },
    (n) => fail(n, `the line is longer than ${MAX_LINE_BYTES} bytes, more than any judgment: the file is corrupt here`),
  );
  return { judgments, completeBytes: read.completeBytes, tornLine: read.tornBytes > 0 ? read.lines + 1 : undefined };
}

function parseJudgment(line: string, fail: (problem: string) => never): Judgment {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return fail("not a JSON line; the file is corrupt here: fix or remove that line");
  }
  const result = judgmentLineSchema.safeParse(value);
  if (result.success) return value as Judgment;
  const { path: at, problem } = schemaMismatch(value, result.error.issues[0]!, describeValue);
  return fail(`${at === "" ? "" : `field ${at}: `}${problem}; not a blogqa judgment line: fix or remove that line`);
}

const tornNotice = (file: string, line: number) =>
  `${file}:${line}: the last line is torn (no newline at its end: an interrupted write); it is not counted, and ` +
  "judging again redoes that run";

/** The run folder's judgments, checked against its log; none when nothing was judged. A torn last line is a notice. */
export function readJudgments(
  dir: string,
  records: readonly AnswerRecord[],
  onNotice: (line: string) => void = console.error,
): readonly Judgment[] {
  const file = path.join(dir, JUDGMENTS_FILE);
  const log = readJudgmentLog(file, records);
  if (log.tornLine !== undefined) onNotice(tornNotice(file, log.tornLine));
  return log.judgments;
}

/** A run folder's judgments.jsonl opened for judging: what is judged, and a line appended per new judgment. */
export interface JudgmentWriter {
  readonly file: string;
  /** Whether this answer of the run is judged already (not judged again). */
  has(r: AnswerRecord): boolean;
  append(judgment: Judgment): void;
  /** Every judgment in the file, those appended since it was opened included. */
  judgments(): readonly Judgment[];
  /** Lets another process open the folder. */
  close(): void;
}

/**
 * Opens DIR/judgments.jsonl to add `judgeModel`'s verdicts on `records`: takes the folder's lock (a run writing the
 * folder, or a second judge, is refused), reads what is judged, cuts a torn last line off (that run is judged again),
 * and refuses a file of another judge model's verdicts, since one table holds one judge's.
 */
export function openJudgmentLog(
  dir: string,
  records: readonly AnswerRecord[],
  judgeModel: string,
  onNotice: (line: string) => void = () => {},
): JudgmentWriter {
  const file = path.join(dir, JUDGMENTS_FILE);
  const release = acquireRunLock(dir, onNotice);
  let log: JudgmentLog;
  try {
    log = readJudgmentLog(file, records);
    if (log.tornLine !== undefined) {
      onNotice(
        `${file}:${log.tornLine}: dropped a torn last line (an interrupted write); that run will be judged again`,
      );
      dropTornTail(file, log);
    }
    const other = log.judgments[0]?.judge_model;
    if (other !== undefined && other !== judgeModel)
      throw new UserError(
        `${file} holds the verdicts of judge model ${other}; a folder holds one judge's: remove the file to judge ` +
          `with ${judgeModel}, or give --judge-model ${other} to finish its judging`,
      );
  } catch (error) {
    release();
    throw error;
  }
  const all = [...log.judgments];
  const done = new Set(all.map((j) => runKey(j)));
  return {
    file,
    has: (r) => done.has(runKey(r)),
    append(judgment) {
      try {
        appendFileSync(file, `${JSON.stringify(judgment)}\n`);
      } catch (error) {
        throw fsUserError(
          error,
          file,
          ". The judgments before this one are kept: run the same command again to resume",
        );
      }
      all.push(judgment);
      done.add(runKey(judgment));
    },
    judgments: () => all,
    close: release,
  };
}
