// The model judge's table in tables.md, judge.csv and the page, beside the key facts; absent where nothing was judged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { writeReport, writeTables } from "../../src/report/index.ts";
import { JUDGMENTS_FILE } from "../../src/runs/judgment-log.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { judgmentLines, makeJudgment } from "../helpers/judgments.ts";
import { writeReportFixture } from "../helpers/report-fixture.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const SLUGS = ["kv-cache-inference", "decoding-and-sampling"];
const folder = tempFolders("blogqa-judge-tables");
const FACTS = [["prefill"]];
const RIGHT = "Prefill.\nSource: kv-cache-inference";
const WRONG = "No idea.\nSource: kv-cache-inference";
const run = (id: string, answer: string) => makeRecord({ question_id: id, facts: FACTS, answer });
// Right: q1, q2, q5. Judged supported: q1, q4; unsupported: q2, q3; unparsed: q5; q6 not judged yet.
const records = [
  run("q1", RIGHT),
  run("q2", RIGHT),
  run("q3", WRONG),
  run("q4", WRONG),
  run("q5", RIGHT),
  run("q6", WRONG),
];
const verdicts = ["supported", "unsupported", "unsupported", "supported", "unparsed"] as const;
const EVIL_JUDGE = `judge<img src=x onerror="window.__pwned=3">`;
const judgments = (model = "judge-1b") => verdicts.map((v, i) => makeJudgment(records[i]!, v, model));

test("tables.md and judge.csv hold the judge's verdicts and kappa beside the key-fact table", () => {
  const dir = folder("tables");
  writeFileSync(path.join(dir, JUDGMENTS_FILE), judgmentLines(judgments()));
  const { files, markdown } = writeTables(dir, records, SLUGS, { sections: 3 });
  assert.ok(files.includes("judge.csv"), files.join(", "));
  // Parsed verdicts against answer right: a = 1 (q1), b = 1 (q4), c = 1 (q2), d = 1 (q3): p_o = 1/2 = p_e, kappa 0.
  assert.match(markdown, /Model judge \(one-post questions\): judge-1b's verdict/);
  assert.match(markdown, /\| tiny \| one retrieval, one answer \| 6 \| 5 \| 2 \| 2 \| 1 \| 2\/4 \| 0\.00 \|/);
  assert.ok(markdown.indexOf("Answers and evidence") < markdown.indexOf("Model judge"), "after the key facts");
  // The key-fact table is the rule-based measure alone, unchanged by the judge.
  assert.match(markdown, /\| tiny \| one retrieval, one answer \| 6 \| 6 \| 3\/6 \| 3 \|/);
  assert.equal(readFileSync(path.join(dir, "tables.md"), "utf8"), markdown);
  assert.deepEqual(readFileSync(path.join(dir, "judge.csv"), "utf8").trim().split("\n"), [
    "judge_model,set,model,design,with_facts,judged,supported,unsupported,unparsed,supported_right,supported_not_right,unsupported_right,unsupported_not_right,kappa",
    "judge-1b,one-post,tiny.gguf,workflow,6,5,2,2,1,1,1,1,1,0",
  ]);
});

test("where both put every parsed run in one class, kappa reads undefined, as the note says", () => {
  const dir = folder("one-class");
  writeFileSync(path.join(dir, JUDGMENTS_FILE), judgmentLines([makeJudgment(records[0]!, "supported")]));
  const { markdown } = writeTables(dir, records, SLUGS, { sections: 3 });
  assert.match(markdown, /\| 6 \| 1 \| 1 \| 0 \| 0 \| 1\/1 \| undefined \|/);
  assert.match(markdown, /kappa is undefined where both put every run in one class/);
  assert.match(readFileSync(path.join(dir, "judge.csv"), "utf8"), /,1,0,0,0,\n$/);
});

test("a folder nothing was judged in gets no judge table or file", () => {
  const dir = folder("none");
  const { files, markdown } = writeTables(dir, records, SLUGS, { sections: 3 });
  assert.ok(!files.includes("judge.csv"));
  assert.ok(!existsSync(path.join(dir, "judge.csv")));
  assert.doesNotMatch(markdown, /Model judge/);
});

test("the page shows the judge's section, its model name escaped", async () => {
  const { dir } = writeReportFixture();
  writeFileSync(path.join(dir, "answers.jsonl"), records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  writeFileSync(path.join(dir, JUDGMENTS_FILE), judgmentLines(judgments(EVIL_JUDGE)));
  const page = readFileSync(await writeReport(dir, { content: path.join(dir, "content"), onNotice: () => {} }), "utf8");
  assert.match(page, /<h2>The model judge, beside the key facts<\/h2>/);
  assert.match(page, /<td>2\/4<\/td><td>0\.00<\/td>/);
  assert.ok(!page.includes(EVIL_JUDGE), "the judge's name is escaped");
  assert.ok(page.includes("judge&lt;img src=x onerror="), "and shown");
  const plain = writeReportFixture().dir;
  const without = readFileSync(
    await writeReport(plain, { content: path.join(plain, "content"), onNotice: () => {} }),
    "utf8",
  );
  assert.doesNotMatch(without, /The model judge/);
});
