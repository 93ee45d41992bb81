// A run whose last reply stopped at the token limit is flagged under the tables and on the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { cutAtTokenLimit, tokenLimitGroups, tokenLimitNote } from "../../src/scoring/index.ts";
import { writeTables } from "../../src/report/write-tables.ts";
import { writeReport } from "../../src/report/index.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { writeReportFixture } from "../helpers/report-fixture.ts";
import { appendFileSync } from "node:fs";
import path from "node:path";

/** A record whose last call ended as `stopReason` says. */
function ending(spec: Parameters<typeof makeRecord>[0], stopReason: "eos" | "max-tokens"): AnswerRecord {
  const r = makeRecord(spec);
  const calls = r.transcript.calls.map((c) => ({ ...c, record: { ...c.record, stopReason } }));
  return { ...r, transcript: { ...r.transcript, calls } } as AnswerRecord;
}

test("only scored runs whose last reply hit the limit are listed, by design, models named when there are several", () => {
  const records = [
    ending({ question_id: "q1", design: "agent" }, "max-tokens"),
    ending({ question_id: "q2", design: "agent" }, "eos"),
    ending({ question_id: "q3", design: "agent" }, "max-tokens"),
    ending({ question_id: "q1", design: "workflow" }, "max-tokens"),
  ];
  const cut = cutAtTokenLimit(records);
  assert.deepEqual(
    cut.map((r) => `${r.design} ${r.question_id}`),
    ["agent q1", "agent q3", "workflow q1"],
  );
  assert.equal(
    tokenLimitNote(cut),
    "token limit: 3 runs' last reply stopped at the --max-new-tokens limit, so it may be cut short: agent 2, workflow 1",
  );
  assert.deepEqual(tokenLimitGroups(cut), [
    ["agent", ["q1", "q3"]],
    ["workflow", ["q1"]],
  ]);
  const two = cutAtTokenLimit([
    ...records,
    ending({ model: "b.gguf", question_id: "q9", design: "agent" }, "max-tokens"),
  ]);
  assert.match(tokenLimitNote(two)!, /: tiny\.gguf agent 2, tiny\.gguf workflow 1, b\.gguf agent 1$/);
  assert.equal(tokenLimitNote(cutAtTokenLimit([records[1]!])), undefined);
});

test("tables.md and the page carry the flag", async () => {
  const { dir } = writeReportFixture();
  const cutLine = ending(
    { model: "small.gguf", question_id: "q09", design: "workflow", gold_post: "kv-cache-inference" },
    "max-tokens",
  );
  appendFileSync(path.join(dir, "answers.jsonl"), `${JSON.stringify(cutLine)}\n`);
  const content = path.join(dir, "content");
  const records = readFileSync(path.join(dir, "answers.jsonl"), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as AnswerRecord);
  const { markdown } = writeTables(
    dir,
    records,
    ["kv-cache-inference", "flashattention-explained", "bm25-hybrid-search"],
    {
      sections: 9,
    },
  );
  assert.match(markdown, /\*\*token limit: \d+ runs?'s? last reply stopped at the --max-new-tokens limit/);
  assert.match(markdown, /so it may be cut short: workflow 1\*\*\n/);
  const page = readFileSync(await writeReport(dir, { content, onNotice: () => {} }), "utf8");
  assert.match(page, /<p class="warning" id="token-limit">token limit: /);
  // the question ids behind a details element, not in the sentence
  assert.match(page, /<details class="note"><summary>Which runs<\/summary>[^<]*workflow: q09/);
});
