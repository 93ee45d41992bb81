// --split-depth: deeper headings start sections where asked, the value is bounded, and a run records it.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";
import { defaultSettings, settingFields, settingsFromFields } from "../../src/runs/settings.ts";

const shapes = path.resolve(import.meta.dirname, "../fixtures/mdx-shapes");

const levels = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => (JSON.parse(l) as { heading: string; level: number }).level);

test("sections --split-depth 4 makes the folded #### a section; the default folds it", async () => {
  const folded = await runCliInProcess(["sections", "--content", shapes]);
  assert.equal(folded.status, 0, folded.stderr);
  assert.ok(!levels(folded.stdout).includes(4));
  const split = await runCliInProcess(["sections", "--content", shapes, "--split-depth", "4"]);
  assert.equal(split.status, 0, split.stderr);
  const deep = split.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { heading: string; level: number })
    .filter((s) => s.level === 4);
  assert.deepEqual(
    deep.map((s) => s.heading),
    ["A deep point"],
  );
});

test("--split-depth outside 1 to 6 is a usage error", async () => {
  for (const value of ["0", "7", "2.5"]) {
    const r = await runCliInProcess(["sections", "--content", shapes, "--split-depth", value]);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`--split-depth must be a whole number from 1 to 6, got ${value}`));
  }
});

test("the manifest records a split depth other than the study's, and reads an old one as 3", () => {
  assert.equal(settingFields(defaultSettings()).split_depth, undefined);
  const deeper = settingFields(defaultSettings({ splitDepth: 4 }));
  assert.equal(deeper.split_depth, 4);
  assert.equal(settingsFromFields(deeper).splitDepth, 4);
  assert.equal(settingsFromFields(settingFields(defaultSettings())).splitDepth, 3);
});
