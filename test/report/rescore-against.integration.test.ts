// `rescore RUN --against OTHER` from the command line: the withheld-source table written into RUN's tables.md (and
// withholding.csv) and printed; a pair that cannot be compared is one line, and tables.md is left as it was.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";
import { writeJudgeFixture, writeWithheldPair } from "../helpers/judgments.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const folder = tempFolders("blogqa-rescore-against");

test("rescore --against writes the withheld-source test into the run's tables.md, either folder first", async () => {
  const normal = folder("normal");
  const held = folder("held");
  await writeWithheldPair(normal, held);
  const row = "| one-post | small | one retrieval, one answer | 3/4 | 2/4 | 2/4 | 1.000 | 2/3 | 1/3 | 1/3 | 1.000 |";
  for (const [run, other] of [
    [held, normal],
    [normal, held],
  ] as const) {
    const result = await runCliInProcess(["rescore", run, "--against", other]);
    assert.equal(result.status, 0, result.stderr);
    assert.ok(result.stdout.includes(row), result.stdout);
    const tables = readFileSync(path.join(run, "tables.md"), "utf8");
    assert.ok(tables.includes(row), tables);
    // The rest of tables.md is what run writes: the study's tables and the key facts.
    assert.match(tables, /Answers and evidence \(one-post questions\)/);
    assert.ok(existsSync(path.join(run, "withholding.csv")));
    assert.match(result.stderr, /tables written to .*tables\.md, .*withholding\.csv/);
  }
  // The withheld run's tables.md still opens with the line saying it withheld.
  assert.match(readFileSync(path.join(held, "tables.md"), "utf8"), /^> \*\*Withheld-source run \(--withhold gold\)/m);

  // The pair is recorded in the folder: later commands without --against keep the table.
  const plain = await runCliInProcess(["rescore", normal]);
  assert.ok(plain.stdout.includes(row), plain.stdout);
  const json = await runCliInProcess(["rescore", normal, "--json"]);
  assert.equal(json.status, 0, json.stderr);
  const tables = (JSON.parse(json.stdout) as { tables: Record<string, { rows: Record<string, object[]> }> }).tables;
  assert.deepEqual(Object.keys(tables), ["study", "strict", "agents", "key-facts", "withholding"]);
  assert.equal(tables.withholding?.rows["withholding.csv"]?.length, 2);
  const compared = await runCliInProcess(["compare", normal, "--json"]);
  assert.equal(compared.status, 0, compared.stderr);
  assert.ok("withholding" in (JSON.parse(compared.stdout) as { tables: object }).tables, compared.stdout);
  const report = await runCliInProcess(["report", normal]);
  assert.equal(report.status, 0, report.stderr);
  assert.match(readFileSync(path.join(normal, "report.html"), "utf8"), /<h2>The withheld-source test<\/h2>/);
});

test("rescore --against two normal runs is one line, and leaves tables.md alone", async () => {
  const a = folder("a");
  const b = folder("b");
  await writeJudgeFixture(a);
  await writeJudgeFixture(b);
  writeFileSync(path.join(a, "tables.md"), "as it was\n");
  const result = await runCliInProcess(["rescore", a, "--against", b]);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /^blogqa: rescore --against: exactly one of .* must be a --withhold run/m);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
  assert.equal(readFileSync(path.join(a, "tables.md"), "utf8"), "as it was\n");
});

/** Rewrites `dir`'s answers.jsonl, each line through `edit` (undefined: the line is dropped). */
function editAnswers(dir: string, edit: (line: Record<string, unknown>) => Record<string, unknown> | undefined): void {
  const file = path.join(dir, "answers.jsonl");
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .flatMap((l) => edit(JSON.parse(l) as Record<string, unknown>) ?? []);
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}

test("rescore --against a withheld run of another model is a usage error; a design it left out is named", async () => {
  const normal = folder("other-model-normal");
  const held = folder("other-model-held");
  await writeWithheldPair(normal, held);
  writeFileSync(path.join(normal, "tables.md"), "as it was\n");
  const manifestFile = path.join(held, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  const models = manifest.models.map((m: object) => ({ ...m, id: "other.gguf", path: "other.gguf" }));
  writeFileSync(manifestFile, JSON.stringify({ ...manifest, models }));
  editAnswers(held, (r) => ({ ...r, model: "other.gguf" }));
  const refused = await runCliInProcess(["rescore", normal, "--against", held]);
  assert.equal(refused.status, 2, refused.stderr);
  assert.equal(
    refused.stderr,
    `blogqa: rescore --against: ${normal} and ${held} share no model (${normal} ran small.gguf; ${held} ran ` +
      "other.gguf): the withheld-source test pairs each model's runs of a design with its own; run the withheld " +
      "study on the same models\n",
  );
  assert.equal(readFileSync(path.join(normal, "tables.md"), "utf8"), "as it was\n");
  assert.ok(!existsSync(path.join(normal, "withheld-pair.json")));

  await writeWithheldPair(normal, held);
  editAnswers(held, (r) => (r.design === "agent" ? undefined : r));
  const partial = await runCliInProcess(["rescore", normal, "--against", held]);
  assert.equal(partial.status, 0, partial.stderr);
  const note = `Left out, not run in both folders: design agent (only in ${normal}).`;
  assert.ok(partial.stderr.includes(`rescore --against: ${note}\n`), partial.stderr);
  assert.ok(readFileSync(path.join(normal, "tables.md"), "utf8").includes(note));
  assert.ok(partial.stdout.includes(note), partial.stdout);
});
