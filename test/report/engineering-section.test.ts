// The report page's "What the engineering bought" section: present with engineered designs, absent without.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import { runDesign } from "../../src/designs/run-design.ts";
import type { DesignId } from "../../src/designs/index.ts";
import { fakeIndex, scriptedRuntime } from "../helpers/scripted-runtime.ts";

const SLUGS = ["flashattention-explained", "kv-cache-inference", "bm25-hybrid-search"];
const QUESTION = {
  id: "q1",
  question: "How is the running maximum updated?",
  post: "flashattention-explained",
  heading: "The online softmax",
};

async function run(design: DesignId, replies: string[]) {
  return answerRecord(
    "m",
    design,
    QUESTION,
    await runDesign(design, { question: QUESTION.question, runtime: scriptedRuntime(replies), index: fakeIndex() }),
  );
}

test("the page shows what the engineering bought, and a repaired run's first answer in the transcript data", async () => {
  const records = [
    await run("workflow", ["A.\nSource: flashattention-explained"]),
    await run("workflow-cite-checked", ["A.\nSource: <post>", "A.\nSource: flashattention-explained"]),
  ];
  const page = (rs: typeof records) =>
    renderReportHtml(reportPage("t", { records: rs, slugs: SLUGS, context: { sections: 3 }, slugsFrom: "x" }));
  const html = page(records);
  assert.match(html, /<h2>What the engineering bought<\/h2>/);
  assert.match(html, /<caption>What the engineering bought: m<\/caption>/);
  // The transcript browser's data: "<" is escaped so that logged text cannot close the script block.
  assert.ok(html.includes(String.raw`"firstAnswer":"A.\nSource: \u003cpost>"`));
  assert.doesNotMatch(page(records.slice(0, 1)), /What the engineering bought/);
});
