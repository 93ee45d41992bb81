// rescore and compare open with the same random-weights label as tables.md and the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareText, readRunFolder, rescoreText } from "../../src/report/index.ts";
import { tinyModelName } from "../../src/test-models/gguf/make-tiny-model.ts";
import { runWithManifest } from "../helpers/report-fixture.ts";

test("rescore and compare of a run on generated models open with the random-weights label", async () => {
  const run = await readRunFolder(await runWithManifest([tinyModelName("random", "tiny", 1)]));
  const label =
    "> **Random weights.** Some of this run's models are blogqa's generated models with random weights " +
    "(blogqa random tiny qwen2, seed 1): they write gibberish by design, so these figures test the harness, never a model's quality.";
  assert.equal(rescoreText(run).split("\n\n")[0], label);
  assert.equal(compareText(run).split("\n\n")[0], label);
  const real = await readRunFolder(await runWithManifest());
  assert.doesNotMatch(rescoreText(real) + compareText(real), /Random weights/);
});
