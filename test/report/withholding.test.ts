// The withheld-source test scored on hand-built runs, and compare's table for a normal run against a withheld one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withholdingRows } from "../../src/scoring/index.ts";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compareText, renderReportHtml, reportData, writeReport } from "../../src/report/index.ts";
import { readManifest, type RunManifest } from "../../src/runs/index.ts";
import { runWithManifest } from "../helpers/report-fixture.ts";
import { makeRecord } from "../helpers/answer-records.ts";

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
      answer_right_shown: 2,
      answer_right_withheld: 1,
      answer_survives: 1,
      p_answer: 1,
    },
  ]);
  const noFacts = withholdingRows([makeRecord({ question_id: "q1" })], [makeRecord({ question_id: "q1" })], SLUGS);
  assert.deepEqual([noFacts[0]?.n, noFacts[0]?.answer_right_shown, noFacts[0]?.p_answer], [1, null, null]);
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
