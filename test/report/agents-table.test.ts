// "What the agents did" in tables.md, agents.csv and the page, from scripted runs and failed ones left out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { runDesign } from "../../src/designs/run-design.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import type { DesignId } from "../../src/designs/registry.ts";
import { writeTables } from "../../src/report/index.ts";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";
import { fakeIndex, scriptedRuntime, SCRIPTED_QUESTION } from "../helpers/scripted-runtime.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const SLUGS = ["flashattention-explained", "kv-cache-inference", "bm25-hybrid-search"];
const folder = tempFolders("blogqa-agents");
const search = (query: string) => `${JSON.stringify({ name: "search_posts", arguments: { query } })}\n</tool_call>`;

async function run(design: DesignId, id: string, replies: Parameters<typeof scriptedRuntime>[0]) {
  const runtime = scriptedRuntime(replies);
  const transcript = await runDesign(design, { question: SCRIPTED_QUESTION.question, runtime, index: fakeIndex() });
  return answerRecord("m <b>", design, { ...SCRIPTED_QUESTION, id }, transcript);
}

const failure = { stopReason: "error", error: "HTTP 500: server error" } as const;
const records: AnswerRecord[] = await Promise.all([
  run("agent-forced", "q1", [search("running maximum"), "A.\nSource: flashattention-explained"]),
  run("agent-forced", "q2", [search("prefill decode"), `<tool_call>\n${search("decode")}`, "A."]),
  // Failed runs: the agent's is counted under the table, the workflow's (which has no row here) is not.
  run("agent-forced", "q3", [failure]),
  run("workflow", "q1", [failure]),
  run("workflow", "q2", ["A.\nSource: kv-cache-inference"]),
]);

test("tables.md has the table after the strict rescore, with the left-out agent run counted under it", () => {
  assert.deepEqual(
    records.map((r) => r.outcome),
    ["answered", "answered", "error", "error", "answered"],
  );
  const dir = folder("tables");
  const { markdown, files } = writeTables(dir, records, SLUGS, { sections: 3 });
  assert.deepEqual(files, ["tables.md", "study.csv", "strict.csv", "agents.csv"]);
  const table = markdown.slice(markdown.indexOf("What the agents did"));
  assert.ok(markdown.indexOf("Strict rescore") < markdown.indexOf("What the agents did"));
  assert.equal(
    table,
    [
      "What the agents did (runs, counted from each run's transcript)",
      "",
      "| model | design | n | hit the turn limit | searched | searched again | read a section | model calls (calls: runs) | no source line | one real | several | invented |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      "| m &lt;b&gt; | agent, first call forced | 2 | 0 | 2 | 1 | 0 | 2: 1, 3: 1 | 1 | 1 | 0 | 0 |",
      "",
      "1 run left out: its model call failed (outcome error)",
      "",
    ].join("\n"),
  );
  assert.equal(
    readFileSync(path.join(dir, "agents.csv"), "utf8"),
    "model,design,n,hit_turn_limit,searched,searched_again,read_section,calls_2,calls_3," +
      "source_none,source_one_real,source_several,source_invented\n" +
      "m <b>,agent-forced,2,0,2,1,0,1,1,1,1,0,0\n",
  );
});

test("a log without agent runs writes no agents.csv and no table", () => {
  const dir = folder("workflow");
  const { markdown, files } = writeTables(
    dir,
    records.filter((r) => r.design === "workflow"),
    SLUGS,
    { sections: 3 },
  );
  assert.deepEqual(files, ["tables.md", "study.csv", "strict.csv"]);
  assert.doesNotMatch(markdown, /What the agents did/);
});

test("the page shows the table escaped, with its note, and none without agent runs", () => {
  const html = renderReportHtml(reportPage("t", { records, slugs: SLUGS, context: { sections: 3 }, slugsFrom: "x" }));
  assert.match(html, /<h2>What the agents did<\/h2>/);
  assert.match(
    html,
    /<tr><td class="text">m &lt;b&gt;<\/td><td class="text">agent, first call forced<\/td><td>2<\/td><td>0<\/td><td>2<\/td><td>1<\/td><td>0<\/td><td>2: 1, 3: 1<\/td>/,
  );
  assert.match(html, /What the agents did<\/h2>[\s\S]*<p class="note">1 run left out/);
  const workflows = records.filter((r) => r.design === "workflow");
  assert.doesNotMatch(
    renderReportHtml(reportPage("t", { records: workflows, slugs: SLUGS, context: { sections: 3 }, slugsFrom: "x" })),
    /What the agents did/,
  );
});
