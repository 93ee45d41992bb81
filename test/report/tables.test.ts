// The tables print as the study printed them; records built to match the study's 3B workflow row give that row.
import { test } from "node:test";
import assert from "node:assert/strict";
import { studyRows, strictRows } from "../../src/scoring/index.ts";
import { studyTablesMarkdown, strictTableMarkdown, rowsCsv } from "../../src/report/tables.ts";
import { modelLabels } from "../../src/report/model-labels.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";

function record(i: number, fields: Partial<AnswerRecord>): AnswerRecord {
  return {
    schema: 1,
    model: "hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-fp16-00001-of-00002.gguf",
    design: "workflow",
    question_id: `q${i}`,
    question: "?",
    gold_post: "kv-cache-inference",
    gold_heading: "h",
    answer: "",
    found: false,
    model_calls: 1,
    tool_calls: 1,
    malformed: 0,
    last_context: 427,
    tokens_read: 427,
    tokens_evaluated: 100,
    tokens_generated: 50,
    seconds: 1,
    seen_posts: [],
    outcome: "answered",
    transcript: { calls: [], answer: "", outcome: "answered" },
    ...fields,
  };
}

const labelsOf = (records: readonly AnswerRecord[]) => modelLabels(records.map((r) => r.model));

test("a workflow row built like the study's 3B row prints as the study printed it, with our errors column after", () => {
  const records = Array.from({ length: 30 }, (_, i) =>
    record(i, {
      found: i < 23,
      answer: i < 23 ? "A.\nSource: kv-cache-inference" : "A.\nSource: serving-and-batching",
      seen_posts: ["kv-cache-inference"],
    }),
  );
  const markdown = studyTablesMarkdown(studyRows(records), labelsOf(records), { sections: 446 });
  assert.equal(
    markdown,
    [
      "446 sections; 30 questions; Qwen2.5-3B-Instruct, greedy",
      "",
      "| design | found | cites any | cites right | model calls | tool calls | last context | tokens read | no tool | malformed | errors |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      "| one retrieval, one answer | 23 | 30 | 23 | 1.0 | 1.0 | 427 | 427 | 0 | 0 | 0 |",
    ].join("\n"),
  );
  const [strict] = strictRows(records, ["kv-cache-inference", "serving-and-batching"]);
  assert.deepEqual([strict?.cites_right, strict?.source_one_real, strict?.cites_right_grounded], [23, 30, 23]);
  assert.match(
    strictTableMarkdown(strictRows(records, ["kv-cache-inference", "serving-and-batching"]), labelsOf(records)),
    /\| Qwen2.5-3B-Instruct \| one retrieval, one answer \| 23 \| 23 \| 0 \| 30 \| 0 \| 0 \| 23 \| 23 \|/,
  );
});

test("agent averages, no-tool and malformed counts; thousands separators as in the study", () => {
  const records = [
    record(1, { design: "agent-forced", model_calls: 2, tool_calls: 1, tokens_read: 1021, last_context: 710 }),
    record(2, {
      design: "agent-forced",
      model_calls: 2,
      tool_calls: 1,
      tokens_read: 1021,
      last_context: 710,
      malformed: 1,
    }),
    record(3, { design: "agent", model_calls: 1, tool_calls: 0, tokens_read: 286, last_context: 286 }),
  ];
  const markdown = studyTablesMarkdown(studyRows(records), labelsOf(records), { sections: 446 });
  assert.match(markdown, /\| agent loop \| 0 \| 0 \| 0 \| 1\.0 \| 0\.0 \| 286 \| 286 \| 1 \| 0 \| 0 \|/);
  assert.match(
    markdown,
    /\| agent, first call forced \| 0 \| 0 \| 0 \| 2\.0 \| 1\.0 \| 710 \| 1,021 \| 0 \| 1 \| 0 \|/,
  );
  assert.ok(
    markdown.indexOf("agent loop") < markdown.indexOf("first call forced"),
    "rows follow the study's design order",
  );
});

test("malformed sums failed calls over runs; no tool counts runs that called no tool, failed calls included", () => {
  const [row] = studyRows([
    record(1, { design: "agent", model_calls: 3, tool_calls: 2, malformed: 2 }),
    record(2, { design: "agent", model_calls: 2, tool_calls: 1, malformed: 1 }),
    record(3, { design: "agent", model_calls: 1, tool_calls: 0 }),
  ]);
  assert.deepEqual([row?.malformed, row?.no_tool], [3, 1]);
});

test("model labels and CSV", () => {
  const hub = "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-fp16.gguf";
  const label = modelLabels([hub, "/models/tiny-seed1.gguf"]);
  assert.equal(label(hub), "Qwen2.5-1.5B-Instruct");
  assert.equal(label("/models/tiny-seed1.gguf"), "tiny-seed1");
  assert.equal(rowsCsv([{ a: 1, b: "x,y" }]), 'a,b\n1,"x,y"\n');
});

test("the strict table's note counts the <tool_call> tags the study's pattern passed over, per agent design", () => {
  const slugs = ["kv-cache-inference"];
  const records = [
    record(1, { design: "agent", ignored_call_blocks: 2 }),
    record(2, { design: "agent", ignored_call_blocks: 1 }),
    record(3, { design: "agent-forced", ignored_call_blocks: 0 }),
    record(4, { design: "agent-search-first" }),
  ];
  const markdown = strictTableMarkdown(strictRows(records, slugs), labelsOf(records));
  assert.match(markdown, /\n\nIgnored call blocks \(beyond the study\): .*: Qwen2.5-3B-Instruct, agent loop: 3\./);
  assert.match(markdown, /Not logged \(an older log\) for: Qwen2.5-3B-Instruct, agent, 'always search first'\.$/);
  assert.match(
    strictTableMarkdown(strictRows([record(5, { design: "agent", ignored_call_blocks: 0 })], slugs), labelsOf([])),
    /took .*: none\.$/,
  );
});
