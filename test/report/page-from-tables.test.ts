// The report page draws its tables from TABLES: every table that applies, in the list's order, from the grids its data
// carries as --json has them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderReportHtml } from "../../src/report/html.ts";
import { escapeHtml } from "../../src/report/html-escape.ts";
import { reportPage } from "../../src/report/report-data.ts";
import { tablesJson, tablesOf } from "../../src/report/table-list.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import { runDesign } from "../../src/designs/run-design.ts";
import type { DesignId } from "../../src/designs/index.ts";
import { fakeIndex, SCRIPTED_QUESTION, scriptedRuntime } from "../helpers/scripted-runtime.ts";

const SLUGS = ["flashattention-explained", "kv-cache-inference", "bm25-hybrid-search"];

/** One run of `design` on the scripted question, its model answering with `replies`. */
async function run(design: DesignId, replies: string[]) {
  const { question } = SCRIPTED_QUESTION;
  const transcript = await runDesign(design, { question, runtime: scriptedRuntime(replies), index: fakeIndex() });
  return answerRecord("m", design, SCRIPTED_QUESTION, transcript);
}

test("every table that applies is on the page, in TABLES' order, each grid's caption once", async () => {
  const records = [
    await run("workflow", ["A.\nSource: flashattention-explained"]),
    await run("workflow-cite-checked", ["A.\nSource: <post>", "A.\nSource: flashattention-explained"]),
    await run("agent", ["A.\nSource: kv-cache-inference"]),
  ];
  const page = reportPage("t", { records, slugs: SLUGS, context: { sections: 3 }, slugsFrom: "x" });
  assert.deepEqual(page.data.tables, tablesJson(page.inputs), "the page's data holds the tables as --json has them");
  const ids = tablesOf(page.inputs)
    .map((e) => e.id)
    .filter((id) => id in page.data.tables);
  assert.deepEqual(ids, ["study", "strict", "agents", "engineering"]);
  const html = renderReportHtml(page);
  let at = -1;
  for (const id of ids)
    for (const grid of page.data.tables[id]!.grids) {
      const caption = `<caption>${escapeHtml(grid.caption)}`;
      const i = html.indexOf(caption);
      assert.ok(i > at, `${id}'s "${grid.caption}" stands after the table before it`);
      assert.equal(html.indexOf(caption, i + 1), -1, `${id}'s "${grid.caption}" once`);
      at = i;
    }
});
