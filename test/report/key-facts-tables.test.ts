// The key-fact table in tables.md, key-facts.csv and the page; absent for a log whose questions carry no facts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeTables } from "../../src/report/index.ts";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const SLUGS = ["kv-cache-inference", "decoding-and-sampling"];
const folder = tempFolders("blogqa-key-facts");
const FACTS = [["prefill"], ["decode"]];
const records = [
  makeRecord({ question_id: "q1", facts: FACTS, answer: "Prefill, then decode.\nSource: decoding-and-sampling" }),
  makeRecord({ question_id: "q2", facts: FACTS, answer: "Prefill.\nSource: kv-cache-inference" }),
];

test("tables.md and key-facts.csv hold the cross of answer right with cites right", () => {
  const dir = folder("facts");
  const { files } = writeTables(dir, records, SLUGS, { sections: 3 });
  assert.ok(files.includes("key-facts.csv"));
  const tables = readFileSync(path.join(dir, "tables.md"), "utf8");
  assert.match(tables, /Answers and evidence \(one-post questions\)/);
  assert.match(tables, /\| tiny \| one retrieval, one answer \| 2 \| 2 \| 3\/4 \| 1 \| 0 \| 1 \| 1 \| 0 \| 2 \|/);
  assert.deepEqual(readFileSync(path.join(dir, "key-facts.csv"), "utf8").trim().split("\n"), [
    "set,model,design,n,with_facts,facts_stated,facts_asked,answer_right,right_cited_right,right_cited_wrong,cited_right_wrong,from_evidence,from_memory",
    "one-post,tiny.gguf,workflow,2,2,3,4,1,0,1,1,0,2",
  ]);
  const html = renderReportHtml(
    reportPage("t", { records, slugs: SLUGS, context: { sections: 3 }, slugsFrom: "content" }),
  );
  assert.match(html, /<h2>Answers and evidence<\/h2>/);
});

test("a log without facts gets no key-fact table or file", () => {
  const dir = folder("none");
  const { files } = writeTables(dir, [makeRecord({ question_id: "q1" })], SLUGS, { sections: 3 });
  assert.ok(!files.includes("key-facts.csv"));
  assert.ok(!existsSync(path.join(dir, "key-facts.csv")));
  assert.doesNotMatch(readFileSync(path.join(dir, "tables.md"), "utf8"), /Answers and evidence/);
});
