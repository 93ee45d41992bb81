// The one reader of answers.jsonl: torn last lines, duplicates, lines of another shape, the old `variant` field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readAnswerLog, tornLineNotice, locateAnswerLog } from "../../src/runs/answer-log.ts";
import { answerFromLine } from "../../src/runs/answer-line.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import type { ModelCall, Transcript } from "../../src/designs/transcript.ts";
import { UserError } from "../../src/common/errors.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const tempDir = () => mkdtempSync(path.join(tmpdir(), "blogqa-log-"));
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

function logFile(...lines: string[]): string {
  const file = path.join(tempDir(), "answers.jsonl");
  writeFileSync(file, lines.join(""));
  return file;
}

/** The record as a plain object, with one field changed (undefined deletes it). */
function edited(record: object, field: string, value: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
  if (value === undefined) delete copy[field];
  else copy[field] = value;
  return copy;
}

const rejectsWith = (file: string, pattern: RegExp) =>
  assert.throws(
    () => readAnswerLog(file),
    (e: unknown) => e instanceof UserError && pattern.test(e.message),
    `expected ${pattern}`,
  );

const q1 = makeRecord({ question_id: "q1" });
const q2 = makeRecord({ question_id: "q2" });

test("a written record reads back as itself", () => {
  const file = logFile(line(q1), line(q2));
  assert.deepEqual(readAnswerLog(file).records, [q1, q2]);
});

test("a two-post question's line reads back; its gold fields are checked as lists", () => {
  const two = makeRecord({ question_id: "t1", gold_posts: ["a", "b"] });
  assert.deepEqual(readAnswerLog(logFile(line(q1), line(two))).records, [q1, two]);
  rejectsWith(logFile(line(edited(two, "gold_headings", undefined))), /:1: field gold_headings: missing/);
  rejectsWith(logFile(line(edited(two, "gold_posts", "a"))), /:1: field gold_posts: expected an array/);
  rejectsWith(logFile(line(edited(q1, "gold_post", undefined))), /:1: field gold_post: missing/);
});

test("every kind of record the runner writes passes the checker: retrieval, tool calls good and bad, a failed call", () => {
  const call = (over: Partial<ModelCall> = {}): ModelCall => ({
    messages: [
      { role: "system", content: "s" },
      { role: "user", content: "q" },
    ],
    withTools: true,
    reply: "r",
    record: { tokensRead: 10, tokensEvaluated: 4, tokensGenerated: 2, stopReason: "eos", seconds: 0.1 },
    toolCalls: [],
    ...over,
  });
  const search = {
    raw: '{"name": "search_posts"}',
    name: "search_posts",
    arguments: { query: "x" },
    result: "[]",
    malformed: false,
    shownPosts: ["a"],
  };
  const broken = {
    raw: "{",
    name: undefined,
    arguments: undefined,
    result: "error: JSONDecodeError: ...",
    malformed: true,
    shownPosts: [],
  };
  const transcripts: Transcript[] = [
    {
      retrieval: { query: "q", hits: [{ post: "a", heading: "h", snippet: "s" }] },
      calls: [call({ withTools: false })],
      answer: "r",
      outcome: "answered",
    },
    {
      calls: [call({ prefix: "<tool_call>\n", toolCalls: [search, broken] }), call()],
      answer: "r",
      outcome: "answered",
    },
    {
      calls: Array.from({ length: 6 }, () => call({ toolCalls: [search] })),
      answer: "(ran out of turns)",
      outcome: "ran-out-of-turns",
    },
    {
      calls: [
        call({
          reply: "",
          record: {
            tokensRead: 9000,
            tokensEvaluated: undefined,
            tokensGenerated: 0,
            stopReason: "context-overflow",
            seconds: 0,
            error: "too long",
          },
        }),
      ],
      answer: "",
      outcome: "error",
      error: "too long",
    },
  ];
  const questions = [
    { id: "q1", question: "?", post: "a", heading: "h" },
    { id: "q2", question: "?", posts: ["a", "b"] as [string, string], headings: ["h", "i"] as [string, string] },
  ];
  for (const question of questions) {
    for (const transcript of transcripts) {
      const record = answerRecord("m.gguf", "agent", question, transcript);
      const result = answerFromLine(JSON.parse(JSON.stringify(record)));
      assert.ok(
        "record" in result,
        `${question.id} ${transcript.outcome}: ${JSON.stringify("mismatch" in result && result.mismatch)}`,
      );
    }
  }
});

test("a torn last line is not counted and is reported with its line number", () => {
  const file = logFile(line(q1), line(q2), line(makeRecord({ question_id: "q3" })).slice(0, 50));
  const log = readAnswerLog(file);
  assert.equal(log.records.length, 2);
  assert.equal(log.tornLine, 3);
  assert.match(tornLineNotice(file, log) ?? "", /answers\.jsonl:3: the last line is torn .* not counted/);
  assert.equal(tornLineNotice(file, readAnswerLog(logFile(line(q1)))), undefined);
});

test("a duplicated (model, design, question) is an error naming both lines", () => {
  const file = logFile(line(q1), line(q2), line(q1));
  rejectsWith(
    file,
    /answers\.jsonl:3: a second line for model tiny\.gguf, design workflow, question q1 \(first on line 1\)/,
  );
});

test("the same question under another design or model is no duplicate", () => {
  const file = logFile(
    line(q1),
    line(makeRecord({ question_id: "q1", design: "agent" })),
    line(makeRecord({ question_id: "q1", model: "other.gguf" })),
  );
  assert.equal(readAnswerLog(file).records.length, 3);
});

test("a line missing a field the readers use names FILE:LINE and the field", () => {
  for (const field of ["answer", "model", "seen_posts", "question_id", "outcome", "tokens_read", "transcript"]) {
    const file = logFile(line(q1), line(edited(q2, field, undefined)));
    rejectsWith(file, new RegExp(`answers\\.jsonl:2: field ${field}: missing`));
  }
});

test("a field of the wrong type names the field, nested ones by their path", () => {
  rejectsWith(
    logFile(line(edited(q1, "found", "yes"))),
    /:1: field found: expected true or false, got a string \("yes"\)/,
  );
  rejectsWith(
    logFile(line(edited(q1, "tokens_read", -3))),
    /:1: field tokens_read: expected a whole number >= 0, got the number -3/,
  );
  rejectsWith(logFile(line(edited(q1, "seen_posts", ["a", 3]))), /:1: field seen_posts\[1\]: expected a string/);
  rejectsWith(
    logFile(line(edited(q1, "outcome", "done"))),
    /:1: field outcome: expected one of "answered", "ran-out-of-turns", "error"/,
  );
  const badReply = edited(q1, "transcript", { ...q1.transcript, calls: [{ ...q1.transcript.calls[0], reply: 7 }] });
  rejectsWith(logFile(line(badReply)), /:1: field transcript\.calls\[0\]\.reply: expected a string, got the number 7/);
});

test("the transcript's tags are checked: a failed run and a failed call carry their error, a failed run no answer", () => {
  const failedCall = {
    ...q1.transcript.calls[0],
    record: { tokensRead: 9, tokensGenerated: 0, stopReason: "error", seconds: 0, error: "boom" },
  };
  const failed = { calls: [failedCall], answer: "", outcome: "error", error: "boom" };
  assert.ok("record" in answerFromLine(edited(q1, "transcript", failed)));
  const { error: _, ...noError } = failed;
  rejectsWith(logFile(line(edited(q1, "transcript", noError))), /:1: field transcript\.error: missing/);
  rejectsWith(
    logFile(line(edited(q1, "transcript", { ...failed, answer: "Prefill." }))),
    /:1: field transcript\.answer: expected "", got a string \("Prefill\."\)/,
  );
  const { error: __, ...silentRecord } = failedCall.record;
  rejectsWith(
    logFile(line(edited(q1, "transcript", { ...failed, calls: [{ ...failedCall, record: silentRecord }] }))),
    /:1: field transcript\.calls\[0\]\.record\.error: missing/,
  );
  rejectsWith(
    logFile(line(edited(q1, "transcript", { ...failed, outcome: "failed" }))),
    /:1: field transcript\.outcome: expected one of "answered", "ran-out-of-turns", "error", got a string \("failed"\)/,
  );
});

test("a schema-1 line of another shape, and lines that are not records, are errors, not silently dropped", () => {
  rejectsWith(
    logFile(line(q1), line({ schema: 1, kind: "note", text: "hello" })),
    /answers\.jsonl:2: field model: missing; not a blogqa answer line/,
  );
  rejectsWith(logFile(line(q1), "not json\n", line(q2)), /answers\.jsonl:2: not a JSON line/);
  rejectsWith(logFile(line([1, 2])), /answers\.jsonl:1: not a JSON object/);
  rejectsWith(
    logFile(line({ id: "q1", question: "What?" })),
    /answers\.jsonl:1: field schema: missing; not a blogqa answer line/,
  );
  rejectsWith(
    logFile(line(edited(q1, "schema", 2))),
    /answers\.jsonl:1: field schema: log schema 2; this blogqa reads schema 1/,
  );
});

test("several bad lines: the first is named, and how many more there are", () => {
  rejectsWith(
    logFile(line(q1), "x\n", "y\n", line(q1)),
    /answers\.jsonl:2: not a JSON line.*\(and 2 more bad lines\)$/,
  );
});

test("blank lines are skipped", () => {
  assert.equal(readAnswerLog(logFile(line(q1), "\n", "  \n", line(q2))).records.length, 2);
});

test("the design is read from `design`, or from `variant` in logs written before the name changed", () => {
  const { design: variant, ...rest } = JSON.parse(
    JSON.stringify(makeRecord({ question_id: "q1", design: "agent" })),
  ) as Record<string, unknown>;
  const asVariant = answerFromLine({ ...rest, variant });
  assert.ok("record" in asVariant);
  assert.equal(asVariant.record.design, "agent");
  assert.ok("record" in answerFromLine({ ...rest, design: variant }));
  assert.ok("record" in answerFromLine({ ...rest, variant, design: variant }));
  const disagree = answerFromLine({ ...rest, variant: "agent", design: "workflow" });
  assert.ok("mismatch" in disagree && disagree.mismatch.path === "design");
  const neither = answerFromLine(rest);
  assert.ok("mismatch" in neither && neither.mismatch.path === "design" && neither.mismatch.problem === "missing");
  const unknown = answerFromLine({ ...rest, design: "agentic" });
  assert.ok(
    "mismatch" in unknown &&
      unknown.mismatch.path === "design" &&
      /expected one of "workflow"/.test(unknown.mismatch.problem),
  );
  const unknownOld = answerFromLine({ ...rest, variant: "agentic" });
  assert.ok("mismatch" in unknownOld && unknownOld.mismatch.path === "variant");
  // Both spellings in one log are the same run: a duplicate.
  rejectsWith(
    logFile(line({ ...rest, design: variant }), line({ ...rest, variant })),
    /:2: a second line for model tiny\.gguf, design agent, question q1/,
  );
});

test("a run folder or its log is located; a missing one or a folder without a log is named", () => {
  const dir = tempDir();
  assert.throws(
    () => locateAnswerLog(path.join(dir, "nope")),
    /nope: no such file or folder \(give a run folder or its answers\.jsonl\)/,
  );
  assert.throws(() => locateAnswerLog(dir), new RegExp(`${dir}: no answers\\.jsonl here`));
  writeFileSync(path.join(dir, "answers.jsonl"), "");
  assert.deepEqual(locateAnswerLog(dir), { dir, file: path.join(dir, "answers.jsonl") });
});

test("a line longer than any answer line names FILE:LINE and is never read into one string", () => {
  const file = logFile(line(q1), `{"text": "${"x".repeat(64 * 1024 * 1024)}"}\n`, line(q2));
  assert.throws(
    () => readAnswerLog(file),
    (e: unknown) =>
      e instanceof UserError &&
      e.message ===
        `${file}:2: the line is longer than 67108864 bytes (64 MiB), more than any answer line; ` +
          "the log is corrupt here: fix or remove that line",
  );
});

test("a line without wording or sample is the default wording's sample 0; other samples and wordings are other runs", () => {
  const s1 = { ...q1, sample: 1, seed: 7 };
  const terse = { ...q1, wording: "terse" };
  assert.deepEqual(readAnswerLog(logFile(line(q1), line(s1), line(terse))).records, [q1, s1, terse]);
  rejectsWith(
    logFile(line(q1), line({ ...q1, wording: "default", sample: 0 })),
    /:2: a second line for model tiny\.gguf, design workflow, question q1 \(first on line 1\)/,
  );
  rejectsWith(
    logFile(line(terse), line({ ...s1, wording: "terse" }), line({ ...s1, wording: "terse" })),
    /:3: a second line for model tiny\.gguf, design workflow, question q1, wording terse, sample 1 \(first on line 2\)/,
  );
  rejectsWith(logFile(line({ ...q1, sample: -1 })), /:1: field sample: /);
});
