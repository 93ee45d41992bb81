// run --fresh's clear removes every derived file the table list names and the inputs commands recorded, and nothing else.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DERIVED_FILES } from "../../src/report/index.ts";
import { openRunFolder } from "../../src/runs/index.ts";
import { RECORDED_FILES } from "../../src/runs/run-folder.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const folder = tempFolders("blogqa-derived-files");

test("DERIVED_FILES holds tables.md, every table's CSV, the page and the Inspect folder", () => {
  for (const file of ["tables.md", "strict.csv", "withholding.csv", "judge.csv", "sensitivity.csv", "report.html"])
    assert.ok(DERIVED_FILES.includes(file), file);
  assert.equal(new Set(DERIVED_FILES).size, DERIVED_FILES.length, "no file listed twice");
  assert.deepEqual([...RECORDED_FILES], ["judgments.jsonl", "withheld-pair.json"]);
});

test("clear() removes the derived files and the recorded inputs, and leaves other files alone", () => {
  const dir = folder("clear");
  for (const file of [...DERIVED_FILES.filter((f) => f !== "inspect"), ...RECORDED_FILES, "notes.txt"])
    writeFileSync(path.join(dir, file), "x");
  const run = openRunFolder(dir, { fresh: true, derivedFiles: DERIVED_FILES });
  try {
    run.clear();
  } finally {
    run.close();
  }
  assert.deepEqual(
    readdirSync(dir).filter((f) => f !== ".lock"),
    ["notes.txt"],
  );
  assert.ok(!existsSync(path.join(dir, "withheld-pair.json")));
});
