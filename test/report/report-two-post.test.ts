// The report of a log with two-post questions: their own table, and the study's tables only over one-post questions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportData } from "../../src/report/report-data.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const SLUGS = ["kv-cache-inference", "serving-and-batching"];
const twoPost = (id: string, answer: string) =>
  makeRecord({ design: "workflow", question_id: id, gold_posts: SLUGS, answer, seen_posts: SLUGS });

test("a two-post log gets the two-post table and no study table; each run carries its gold posts and class", () => {
  const data = reportData(
    "t",
    [
      twoPost("t01", "A.\nSource: serving-and-batching, kv-cache-inference"),
      twoPost("t02", "A.\nSource: kv-cache-inference"),
    ],
    SLUGS,
    { sections: 3 },
    undefined,
    "x",
  );
  const html = renderReportHtml(data);
  assert.match(html, /<h2>Questions that need two posts<\/h2>/);
  assert.doesNotMatch(html, /<h2>The study's table<\/h2>/);
  assert.deepEqual(
    data.runs.map((r) => [r.set, r.gold_posts, r.found, r.cites_right, r.cites_right_lenient, r.source.kind]),
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
  const data = reportData("t", [one, twoPost("t01", "A.")], SLUGS, { sections: 3 }, undefined, "x");
  const html = renderReportHtml(data);
  assert.match(html, /<h2>The study's table<\/h2>/);
  assert.match(html, /<h2>Questions that need two posts<\/h2>/);
  assert.deepEqual([data.study[0]?.n, data.twoPost[0]?.n, data.twoPost[0]?.source_none], [1, 1, 1]);
  assert.deepEqual(
    data.runs.map((r) => r.set),
    ["one-post", "two-post"],
  );
});
