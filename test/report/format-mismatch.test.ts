// Agent rows count replies that look like a tool call in another format than the one parsed, and the tables warn.
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatMismatchRows } from "../../src/scoring/index.ts";
import { formatMismatchMarkdown } from "../../src/report/tables.ts";
import { modelLabels } from "../../src/report/model-labels.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";

const bare = '{"name": "search_posts", "arguments": {"query": "kv"}}';
const records = [
  makeRecord({ model: "qwen", design: "agent", question_id: "q01", answer: bare }), // a bare call, read as an answer
  makeRecord({ model: "qwen", design: "agent", question_id: "q02", answer: "It is.\nSource: a" }),
  makeRecord({ model: "llama", design: "agent", question_id: "q01", answer: "<tool_call>\n{}\n</tool_call>" }),
  makeRecord({ model: "llama", design: "agent-forced", question_id: "q01", answer: "It is.\nSource: a" }),
  makeRecord({ model: "qwen", design: "workflow", question_id: "q01", answer: bare }), // no tools: not counted
];

test("each agent row counts its replies that look like another format's call", () => {
  const rows = formatMismatchRows(records, (m) => (m === "llama" ? "llama3" : undefined));
  assert.deepEqual(
    rows.map((r) => [r.model, r.design, r.tool_format, r.replies, r.other_format_replies]),
    [
      ["qwen", "agent", "hermes", 2, 1],
      ["llama", "agent", "llama3", 1, 1],
      ["llama", "agent-forced", "llama3", 1, 0],
    ],
  );
});

test("a non-zero count is shown with a warning naming parse-calls and --tool-format; none, nothing", () => {
  const label = modelLabels(records.map((r) => r.model));
  const shown = formatMismatchMarkdown(
    formatMismatchRows(records, () => undefined),
    label,
  );
  assert.match(shown ?? "", /^> \*\*Warning: tool-call format mismatch\.\*\* 1 agent row has/);
  assert.match(shown ?? "", /--tool-format/);
  assert.match(shown ?? "", /\| qwen \| agent loop \| hermes \| 2 \| 1 \|/);
  const clean = records.filter((r) => r.answer.startsWith("It is"));
  assert.equal(
    formatMismatchMarkdown(
      formatMismatchRows(clean, () => undefined),
      label,
    ),
    undefined,
  );
});

test("the report page shows the same warning and table, escaped, only when a count is non-zero", () => {
  const page = renderReportHtml(reportPage("t", { records, slugs: ["a"], context: { sections: 1 }, slugsFrom: "x" }));
  assert.match(page, /<strong>Tool-call format mismatch\.<\/strong> 1 agent row has/);
  assert.match(page, /<code>--tool-format<\/code>/);
  const clean = records.filter((r) => r.answer.startsWith("It is"));
  const quiet = renderReportHtml(
    reportPage("t", { records: clean, slugs: ["a"], context: { sections: 1 }, slugsFrom: "x" }),
  );
  assert.doesNotMatch(quiet, /Tool-call format mismatch/);
});
