// The report of a log with two-post questions: their own table, and the study's tables only over one-post questions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const SLUGS = ["kv-cache-inference", "serving-and-batching"];
const twoPost = (id: string, answer: string) =>
  makeRecord({ design: "workflow", question_id: id, gold_posts: SLUGS, answer, seen_posts: SLUGS });

test("a two-post log gets the two-post table and no study table; each run carries its gold posts and class", () => {
  const page = reportPage("t", {
    records: [
      twoPost("t01", "A.\nSource: serving-and-batching, kv-cache-inference"),
      twoPost("t02", "A.\nSource: kv-cache-inference"),
    ],
    slugs: SLUGS,
    context: { sections: 3 },
    slugsFrom: "x",
  });
  const html = renderReportHtml(page);
  assert.match(html, /<h2>Questions that need two posts<\/h2>/);
  assert.doesNotMatch(html, /<h2>The study's table<\/h2>/);
  assert.deepEqual(
    page.data.runs.map((r) => [r.set, r.gold_posts, r.found, r.cites_right, r.cites_right_lenient, r.source.kind]),
    [
      ["two-post", SLUGS, true, true, null, "exact"],
      ["two-post", SLUGS, true, false, null, "subset"],
    ],
  );
});

test("a mixed log shows both, and the study's rows count only its one-post questions", () => {
  const one = makeRecord({
    design: "workflow",
    question_id: "q01",
    answer: "A.\nSource: kv-cache-inference",
    found: true,
  });
  const page = reportPage("t", {
    records: [one, twoPost("t01", "A.")],
    slugs: SLUGS,
    context: { sections: 3 },
    slugsFrom: "x",
  });
  const html = renderReportHtml(page);
  assert.match(html, /<h2>The study's table<\/h2>/);
  assert.match(html, /<h2>Questions that need two posts<\/h2>/);
  const rows = (id: string, file: string) => page.data.tables[id]?.rows[file] as { n: number; source_none?: number }[];
  const [study, twoPostRow] = [rows("study", "study.csv")[0], rows("two-post", "two-post.csv")[0]];
  assert.deepEqual([study?.n, twoPostRow?.n, twoPostRow?.source_none], [1, 1, 1]);
  assert.deepEqual(
    page.data.runs.map((r) => r.set),
    ["one-post", "two-post"],
  );
});
