// tables.md and the CSVs of a log with samples or wordings: the repeat tables appear, and a plain log is untouched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeTables } from "../../src/report/index.ts";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import type { DesignId } from "../../src/designs/registry.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const folder = tempFolders("blogqa-repeat-tables-");
const SLUGS = ["kv-cache-inference", "flashattention-explained"];

function run(design: DesignId, q: string, right: boolean, extra: { wording?: string; sample?: number } = {}) {
  const answer = `It depends.\nSource: ${right ? "kv-cache-inference" : "flashattention-explained"}`;
  return { ...makeRecord({ design, question_id: q, answer }), ...extra } as AnswerRecord;
}

const plain = [
  run("workflow", "q1", true),
  run("workflow", "q2", false),
  run("agent", "q1", false),
  run("agent", "q2", false),
];

test("a log of one greedy pass of the default wording gets no repeat tables and no new files", () => {
  const dir = folder("plain");
  const { markdown, files } = writeTables(dir, plain, SLUGS, { sections: 3 });
  assert.doesNotMatch(markdown, /Repeated samples|Sensitivity|best agent/);
  assert.deepEqual(files, ["tables.md", "study.csv", "strict.csv", "agents.csv"]);
  assert.ok(!existsSync(path.join(dir, "repeats.csv")));
});

test("a two-wording log gets the three tables, the computed sentence, and their CSVs", () => {
  const dir = folder("wordings");
  const terse = { wording: "terse" };
  const records = [
    ...plain,
    run("workflow", "q1", true, terse),
    run("workflow", "q2", true, terse),
    run("agent", "q1", true, terse),
    run("agent", "q2", false, terse),
  ];
  const { markdown, files } = writeTables(dir, records, SLUGS, { sections: 3 });
  assert.deepEqual(files.slice(4), ["repeats.csv", "paired-rates.csv", "conditions.csv", "sensitivity.csv"]);
  // Each (wording, sample) condition is a point of its own: the workflow's terse pass is 2 of 2.
  assert.match(markdown, /\| tiny \| one retrieval, one answer \| terse \| 0 \| 2\/2 \(100%, 34-100%\) \|/);
  // Sensitivity: the workflow 50% then 100% (q2 flips), the agent 0% then 50% (q1 flips).
  assert.match(markdown, /\| model \| design \| default \| terse \| spread \(points\) \| questions that flip \|/);
  assert.match(markdown, /\| tiny \| one retrieval, one answer \| 50\.0% \| 100\.0% \| 50\.0 \| q2 \|/);
  assert.match(markdown, /\| tiny \| agent loop \| 0\.0% \| 50\.0% \| 50\.0 \| q1 \|/);
  // Paired: q1 1 - 0.5 = 0.5, q2 0.5 - 0 = 0.5; conditions: default 1 vs 0, terse 2 vs 1: won both.
  assert.match(
    markdown,
    /the workflow cited right more often than agent loop in 2 of 2 \(wording, sample\) conditions; the mean paired difference is \+50\.0 points/,
  );
  const csv = readFileSync(path.join(dir, "sensitivity.csv"), "utf8").trim().split("\n");
  assert.equal(csv[0], "model,design,wording,cites_right,spread,flips");
  assert.equal(csv.length, 5);
  assert.match(readFileSync(path.join(dir, "paired-rates.csv"), "utf8"), /^model,agent,questions,difference,/);
});

test("the report page shows the section and its sentence for a wording log only; a plain log's page is unchanged", () => {
  const page = (records: readonly AnswerRecord[]) =>
    renderReportHtml(reportPage("t", { records, slugs: SLUGS, context: { sections: 3 }, slugsFrom: "the blog" }));
  const plainData = reportPage("t", { records: plain, slugs: SLUGS, context: { sections: 3 }, slugsFrom: "the blog" });
  assert.ok(!("repeats" in plainData.data.tables), "no repeat tables in the page's data");
  assert.doesNotMatch(page(plain), /Samples and wordings/);
  const sampled = [...plain, run("workflow", "q1", true, { sample: 1 }), run("agent", "q1", false, { sample: 1 })];
  const html = page(sampled);
  assert.match(html, /<h2>Samples and wordings<\/h2>/);
  assert.match(html, /the workflow cited right more often than agent loop in 2 of 2 \(wording, sample\) conditions/);
});
