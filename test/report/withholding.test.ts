// The withheld-source test scored on hand-built runs, and compare's table for a normal run against a withheld one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withholdingRows } from "../../src/scoring/index.ts";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  compareText,
  readRunFolder,
  renderReportHtml,
  reportData,
  withheldComparison,
  writeReport,
  writeTables,
} from "../../src/report/index.ts";
import { readManifest, recordWithheldPair, type RunManifest } from "../../src/runs/index.ts";
import { UserError } from "../../src/common/index.ts";
import { runWithManifest } from "../helpers/report-fixture.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { markWithheld, writeJudgeFixture, writeWithheldPair } from "../helpers/judgments.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const folder = tempFolders("blogqa-withholding");

const SLUGS = ["kv-cache-inference", "decoding-and-sampling"];
const FACTS = [["prefill"]];
const RIGHT = "Prefill.\nSource: kv-cache-inference";
const CITED = "No idea.\nSource: kv-cache-inference";
const WRONG = "No idea.\nSource: decoding-and-sampling";
const runs = (answers: readonly string[]) =>
  answers.map((answer, i) => makeRecord({ question_id: `q${i + 1}`, facts: FACTS, answer }));
// Shown: q1-q3 cited right, q1-q2 right. Withheld: q1 still right and cited, q2 cited but wrong, q3 wrong, q4 cited.
const shown = runs([RIGHT, RIGHT, CITED, WRONG]);
const withheld = runs([RIGHT, CITED, WRONG, CITED]);

test("a citation or answer right both with the gold shown and withheld survives; McNemar on the flips", () => {
  assert.deepEqual(withholdingRows(shown, withheld, SLUGS), [
    {
      set: "one-post",
      model: "tiny.gguf",
      design: "workflow",
      n: 4,
      cites_right_shown: 3,
      cites_right_withheld: 3,
      citation_survives: 2,
      p_cites: 1,
      n_with_facts: 4,
      answer_right_shown: 2,
      answer_right_withheld: 1,
      answer_survives: 1,
      p_answer: 1,
    },
  ]);
  const noFacts = withholdingRows([makeRecord({ question_id: "q1" })], [makeRecord({ question_id: "q1" })], SLUGS);
  assert.deepEqual(
    [noFacts[0]?.n, noFacts[0]?.n_with_facts, noFacts[0]?.answer_right_shown, noFacts[0]?.p_answer],
    [1, null, null, null],
  );
});

test("compare prints the withheld-source table only for a normal run against a withheld one", () => {
  const folder = (dir: string, records: typeof shown, manifest?: RunManifest) => ({
    dir,
    answersFile: `${dir}/answers.jsonl`,
    records,
    manifest,
    slugs: SLUGS,
    slugsFrom: "test",
    context: { sections: 3 },
    progress: undefined,
  });
  const gold = { settings: { withhold: "gold" }, corpus: { sha256: "x" }, models: [] } as unknown as RunManifest;
  const text = compareText(folder("/tmp/normal", shown), folder("/tmp/held", withheld, gold));
  assert.match(text, /Withheld-source test \(--withhold gold\)/);
  assert.match(
    text,
    /\| one-post \| tiny \| one retrieval, one answer \| 3\/4 \| 3\/4 \| 2\/4 \| 1\.000 \| 2\/4 \| 1\/4 \| 1\/4 \| 1\.000 \|/,
  );
  assert.doesNotMatch(compareText(folder("/tmp/a", shown), folder("/tmp/b", withheld)), /Withheld-source/);
});

test("a withheld run's page says so at the top; a normal run's does not", async () => {
  const real = readManifest(await runWithManifest())!;
  const gold = { ...real, settings: { ...real.settings, withhold: "gold-post" as const } };
  const page = (manifest: RunManifest) =>
    renderReportHtml(reportData("t", withheld, SLUGS, { sections: 3 }, manifest, "test"));
  assert.match(page(gold), /Withheld-source run \(--withhold gold-post\): each question&#39;s runs searched/);
  assert.doesNotMatch(page(real), /Withheld-source run/);
});

test("report --against a withheld run adds the withheld-source section; against a normal one it is refused", async () => {
  const normal = await runWithManifest();
  const held = await runWithManifest();
  const manifestFile = path.join(held, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  writeFileSync(manifestFile, JSON.stringify({ ...manifest, settings: { ...manifest.settings, withhold: "gold" } }));
  const notices = { onNotice: () => {} };
  const page = readFileSync(await writeReport(normal, { against: held, ...notices }), "utf8");
  assert.match(page, /<h2>The withheld-source test<\/h2>/);
  assert.match(page, /Withheld-source test \(--withhold gold\)/);
  await assert.rejects(
    writeReport(normal, { against: await runWithManifest(), ...notices }),
    /must be a --withhold run/,
  );
});

test("a recorded withheld pair: its table goes into tables.md and withholding.csv, naming both folders", async () => {
  const normal = folder("against-normal");
  const held = folder("against-held");
  await writeWithheldPair(normal, held);
  const notices = { onNotice: () => {} };
  const [a, b] = [await readRunFolder(normal, notices), await readRunFolder(held, notices)];
  // tables.md written before the pair is recorded has no such table.
  assert.doesNotMatch(writeTables(a.dir, a.records, a.slugs, a.context).markdown, /Withheld-source test/);
  assert.ok(!existsSync(path.join(normal, "withholding.csv")));
  recordWithheldPair(normal, held);
  const { files, markdown } = writeTables(a.dir, a.records, a.slugs, a.context);
  assert.ok(files.includes("withholding.csv"), files.join(", "));
  assert.equal(readFileSync(path.join(normal, "tables.md"), "utf8"), markdown);
  assert.match(markdown, /Withheld-source test \(--withhold gold\)/);
  // Workflow: f1 (no facts, gold kitchen-sink) is cited wrong on both sides and left out of answer right's
  // denominator, as the key-fact table leaves it out; f4 is cited right and right only when shown.
  assert.ok(
    markdown.includes(
      "| one-post | small | one retrieval, one answer | 3/4 | 2/4 | 2/4 | 1.000 | 2/3 | 1/3 | 1/3 | 1.000 |",
    ),
    markdown,
  );
  assert.ok(markdown.includes(`Gold shown: ${normal}; withheld: ${held}.`));
  const csv = readFileSync(path.join(normal, "withholding.csv"), "utf8").trim().split("\n");
  assert.equal(
    csv[0],
    "withhold,set,model,design,n,cites_right_shown,cites_right_withheld,citation_survives,p_cites,n_with_facts,answer_right_shown,answer_right_withheld,answer_survives,p_answer",
  );
  assert.equal(csv[1], "gold,one-post,small.gguf,workflow,4,3,2,2,1,3,2,1,1,1");
  // The same pair named the other way round is the same test.
  const pair = withheldComparison(a, b, "rescore --against");
  assert.deepEqual(withheldComparison(b, a, "rescore --against").rows, pair.rows);
});

test("a recorded pair whose folder is gone stops the tables with one line naming the record", async () => {
  const normal = folder("gone-normal");
  const held = folder("gone-held");
  await writeWithheldPair(normal, held);
  recordWithheldPair(normal, held);
  rmSync(held, { recursive: true, force: true });
  const a = await readRunFolder(normal, { onNotice: () => {} });
  assert.throws(
    () => writeTables(a.dir, a.records, a.slugs, a.context),
    (error: Error) =>
      error instanceof UserError &&
      error.message.startsWith(`${path.join(normal, "withheld-pair.json")} pairs this folder with ${held}`) &&
      !error.message.includes("\n"),
  );
  writeFileSync(path.join(normal, "withheld-pair.json"), '{"schema": 1}');
  assert.throws(() => writeTables(a.dir, a.records, a.slugs, a.context), /withheld-pair\.json: field against: missing/);
});

test("rescore --against refuses two normal runs, one folder twice, and folders of other questions", async () => {
  const notices = { onNotice: () => {} };
  const normal = folder("refuse-normal");
  const other = folder("refuse-other");
  await writeJudgeFixture(normal);
  await writeJudgeFixture(other);
  const [a, b] = [await readRunFolder(normal, notices), await readRunFolder(other, notices)];
  assert.throws(
    () => withheldComparison(a, b, "rescore --against"),
    /^UserError: rescore --against: exactly one of .* must be a --withhold run \(.*: --withhold none, .*: --withhold none\)$/,
  );
  assert.throws(() => withheldComparison(a, a, "rescore --against"), /given twice/);
  markWithheld(other, "gold-post");
  const fewer = await readRunFolder(other, notices);
  const dropped = { ...fewer, records: fewer.records.filter((r) => r.question_id !== "f6") };
  assert.throws(
    () => withheldComparison(a, dropped, "rescore --against"),
    /asked different questions \(1 of .*'s 4 are not in .*, 0 of .*'s 3 not in .*; first f6\)/,
  );
});
