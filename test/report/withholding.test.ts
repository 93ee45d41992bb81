// The withheld-source test scored on hand-built runs, and compare's table for a normal run against a withheld one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withholdingRows } from "../../src/scoring/index.ts";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compareText, readRunFolder, withheldComparison, writeReport, writeTables } from "../../src/report/index.ts";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";
import { markdownTable } from "../../src/report/tables.ts";
import { withholdingCsvRows } from "../../src/report/withholding-tables.ts";
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
    renderReportHtml(
      reportPage("t", { records: withheld, slugs: SLUGS, context: { sections: 3 }, manifest, slugsFrom: "test" }),
    );
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
    "withhold,wording,sample,set,model,design,n,cites_right_shown,cites_right_withheld,citation_survives,p_cites,n_with_facts,answer_right_shown,answer_right_withheld,answer_survives,p_answer",
  );
  assert.equal(csv[1], "gold,default,0,one-post,small.gguf,workflow,4,3,2,2,1,3,2,1,1,1");
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

test("answer right's denominator is the questions with key facts; a question without any counts for citations only", () => {
  const mixed = (answers: readonly string[]) =>
    answers.map((answer, i) => makeRecord({ question_id: `q${i + 1}`, answer, ...(i === 1 ? {} : { facts: FACTS }) }));
  const [row] = withholdingRows(mixed([RIGHT, RIGHT, RIGHT]), mixed([RIGHT, RIGHT, CITED]), SLUGS);
  assert.deepEqual(
    [row?.n, row?.cites_right_shown, row?.n_with_facts, row?.answer_right_shown, row?.answer_right_withheld],
    [3, 3, 2, 2, 1],
  );
});

/** `text` as a regular expression matching it literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A normal folder and its withheld twin (writeWithheldPair), read back. */
async function readPair(label: string) {
  const normal = folder(`${label}-normal`);
  const held = folder(`${label}-held`);
  await writeWithheldPair(normal, held);
  const notices = { onNotice: () => {} };
  return { normal, held, a: await readRunFolder(normal, notices), b: await readRunFolder(held, notices) };
}

/** The check of a refusal: a UserError of one line with the usage exit status, matching `pattern`. */
const usageRefusal = (pattern: RegExp) => (error: Error) =>
  error instanceof UserError && error.exitCode === 2 && !error.message.includes("\n") && pattern.test(error.message);

test("two folders that share no model or no design are refused in one line, and compare says why it has no table", async () => {
  const { normal, held, a, b } = await readPair("share-none");
  const renamed = { ...b, records: b.records.map((r) => ({ ...r, model: "other.gguf" })) };
  const noModel = `${normal} and ${held} share no model (${normal} ran small.gguf; ${held} ran other.gguf)`;
  for (const [x, y] of [
    [a, renamed],
    [renamed, a],
  ] as const)
    assert.throws(
      () => withheldComparison(x, y, "rescore --against"),
      usageRefusal(new RegExp(`^rescore --against: ${literal(noModel)}`)),
    );
  const workflow = { ...a, records: a.records.filter((r) => r.design === "workflow") };
  const agent = { ...b, records: b.records.filter((r) => r.design === "agent") };
  assert.throws(
    () => withheldComparison(workflow, agent, "report --against"),
    usageRefusal(
      new RegExp(
        `^report --against: ${literal(`${normal} and ${held} share no design (${normal} ran workflow; ${held} ran agent)`)}`,
      ),
    ),
  );
  // Each model ran each design, just never the same pair in both folders.
  const crossed = (f: typeof a, model: string) =>
    f.records.map((r) => ({ ...r, model: r.design === "workflow" ? model : model === "x.gguf" ? "y.gguf" : "x.gguf" }));
  assert.throws(
    () =>
      withheldComparison(
        { ...a, records: crossed(a, "x.gguf") },
        { ...b, records: crossed(b, "y.gguf") },
        "rescore --against",
      ),
    usageRefusal(/share no model and design run in both/),
  );
  const lines: string[] = [];
  const text = compareText(a, renamed, { onNotice: (line) => lines.push(line) });
  assert.doesNotMatch(text, /Withheld-source test \(--withhold/);
  assert.ok(text.includes(`**No withheld-source test: ${noModel}`), text);
  assert.deepEqual(lines.length, 1);
  assert.match(lines[0]!, /^compare: no withheld-source test: .* share no model/);
});

test("a model or design only one folder ran is left out of the table, named under it and in notices", async () => {
  const { normal, a, b } = await readPair("partial");
  const big = a.records.filter((r) => r.design === "workflow").map((r) => ({ ...r, model: "big.gguf" }));
  const shown = { ...a, records: [...a.records, ...big] };
  const withheld = { ...b, records: b.records.filter((r) => r.design === "workflow") };
  const note = `Left out, not run in both folders: model big.gguf (only in ${normal}); design agent (only in ${normal}).`;
  for (const [x, y] of [
    [shown, withheld],
    [withheld, shown],
  ] as const) {
    const pair = withheldComparison(x, y, "rescore --against");
    assert.deepEqual(
      pair.rows.map((r) => [r.model, r.design]),
      [["small.gguf", "workflow"]],
    );
    assert.deepEqual(pair.notices, [note]);
    assert.ok(pair.grid.notes?.includes(note), JSON.stringify(pair.grid.notes));
    assert.ok(markdownTable(pair.grid).includes(note));
  }
  // Both folders ran small.gguf and agent, but only the shown one ran them together.
  const mixed = [
    ...a.records,
    ...big,
    ...b.records.filter((r) => r.design === "agent").map((r) => ({ ...r, model: "big.gguf" })),
  ];
  const heldMixed = [
    ...b.records.filter((r) => r.design === "workflow"),
    ...b.records.filter((r) => r.design === "agent").map((r) => ({ ...r, model: "big.gguf" })),
    ...big,
  ];
  const pair = withheldComparison({ ...a, records: mixed }, { ...b, records: heldMixed }, "rescore --against");
  assert.deepEqual(pair.notices, [
    `Left out, not run in both folders: model small.gguf with design agent (only in ${normal}).`,
  ]);
  const lines: string[] = [];
  compareText(shown, withheld, { onNotice: (line) => lines.push(line) });
  assert.deepEqual(lines, [`compare: withheld-source test: ${note}`]);
  // Folders that ran the same say nothing more than the folders.
  assert.deepEqual(withheldComparison(a, b, "rescore --against").notices, []);
});

test("a sampled folder pairs only with one sampled alike, on one condition both ran, which the table names", async () => {
  const { normal, held, a, b } = await readPair("sampled");
  const at = (f: typeof a, settings: object) => ({
    ...f,
    manifest: { ...f.manifest!, settings: { ...f.manifest!.settings, ...settings } } as RunManifest,
  });
  const sampled = (f: typeof a, samples: number, temperature = 0.7) =>
    at(
      {
        ...f,
        records: Array.from({ length: samples }, (_, sample) =>
          f.records.map((r) => ({
            ...r,
            sample,
            seed: 7 + sample,
            // a later sample cites nothing: were it paired, the rows would change
            ...(sample > 0 ? { answer: "No idea." } : {}),
          })),
        ).flat(),
      },
      { samples, temperature },
    );
  assert.throws(
    () => withheldComparison(a, sampled(b, 3), "rescore --against"),
    usageRefusal(
      new RegExp(
        `^rescore --against: ${literal(`${normal} decoded greedily and ${held} sampled (temperature 0.7, top_p the model's, top_k the model's)`)}`,
      ),
    ),
  );
  assert.throws(
    () => withheldComparison(sampled(a, 2, 1.2), sampled(b, 2), "rescore --against"),
    usageRefusal(/sampled \(temperature 1\.2, .* sampled \(temperature 0\.7, .*one decoding/),
  );
  const greedy = withheldComparison(a, b, "rescore --against");
  const pair = withheldComparison(sampled(a, 2), sampled(b, 3), "rescore --against");
  assert.deepEqual(pair.rows, greedy.rows);
  assert.deepEqual(pair.condition, { wording: "default", sample: 0 });
  const note =
    "Both folders sampled (temperature 0.7, top_p the model's, top_k the model's); paired on wording \"default\", " +
    `sample 0: one run per question on each side, of ${normal}'s 2 (wording, sample) conditions and ${held}'s 3 ` +
    "(wording, sample) conditions; the others are not paired.";
  assert.deepEqual(pair.notices, [note]);
  assert.ok(pair.grid.notes?.includes(note));
  assert.deepEqual(
    withholdingCsvRows(pair).map((r) => [(r as { wording: string }).wording, (r as { sample: number }).sample]),
    [
      ["default", 0],
      ["default", 0],
    ],
  );
  // Wordings: the first the shown folder ran that the withheld one ran too, not each folder's own first.
  const worded = (f: typeof a, wordings: readonly string[]) => ({
    ...f,
    records: wordings.flatMap((wording) =>
      f.records.map((r) => ({ ...r, wording, ...(wording === "terse" ? { answer: "No idea." } : {}) })),
    ),
  });
  const both = withheldComparison(worded(a, ["terse", "default"]), worded(b, ["default"]), "rescore --against");
  assert.deepEqual(both.condition, { wording: "default", sample: 0 });
  assert.deepEqual(both.rows, greedy.rows);
  assert.match(both.notices[0]!, /^Paired on wording "default", sample 0: .*'s 2 \(wording, sample\) conditions and/);
  assert.throws(
    () => withheldComparison(worded(a, ["terse"]), worded(b, ["default"]), "rescore --against"),
    usageRefusal(/ran wordings "terse" \(1 sample\) and .* "default" \(1 sample\): no wording and sample in both/),
  );
});

test("a partial pairing is said in tables.md, withholding.csv's condition columns and on the page", async () => {
  const normal = folder("partial-files-normal");
  const held = folder("partial-files-held");
  await writeWithheldPair(normal, held);
  const file = path.join(held, "answers.jsonl");
  const kept = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "" && (JSON.parse(line) as { design: string }).design === "workflow");
  writeFileSync(file, kept.map((l) => `${l}\n`).join(""));
  const lines: string[] = [];
  const page = readFileSync(await writeReport(normal, { against: held, onNotice: (l) => lines.push(l) }), "utf8");
  const note = `Left out, not run in both folders: design agent (only in ${normal}).`;
  assert.deepEqual(lines, [`report --against: ${note}`]);
  assert.ok(page.includes(escapeHtmlText(note)), page);
  const a = await readRunFolder(normal, { onNotice: () => {} });
  const { markdown } = writeTables(a.dir, a.records, a.slugs, a.context);
  assert.ok(markdown.includes(note), markdown);
  const csv = readFileSync(path.join(normal, "withholding.csv"), "utf8").trim().split("\n");
  assert.match(csv[0]!, /^withhold,wording,sample,set,model,design,/);
  assert.deepEqual(
    csv.slice(1).map((l) => l.split(",").slice(0, 6).join(",")),
    ["gold,default,0,one-post,small.gguf,workflow"],
  );
});

const escapeHtmlText = (text: string) => text.replaceAll("&", "&amp;").replaceAll("'", "&#39;");
