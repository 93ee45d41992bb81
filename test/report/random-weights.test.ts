// A run on blogqa's generated random-weight models says so at the top of tables.md (and of the page: see report-layout).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { readAnswerLog, readManifest } from "../../src/runs/index.ts";
import { writeTables } from "../../src/report/index.ts";
import { randomWeightModels, testModelNotice } from "../../src/report/random-weights.ts";
import { tinyModelName } from "../../src/test-models/gguf/make-tiny-model.ts";
import { runWithManifest } from "../helpers/report-fixture.ts";

test("the generated models' GGUF names are what the report looks for", async () => {
  const dir = await runWithManifest([tinyModelName("random", "tiny", 1), tinyModelName("zero-blocks", "tiny", 7)]);
  assert.deepEqual(randomWeightModels(readManifest(dir)), [
    "blogqa random tiny qwen2, seed 1",
    "blogqa zero-block tiny qwen2, seed 7",
  ]);
  assert.match(
    testModelNotice(readManifest(dir))?.text ?? "",
    /^This run used blogqa's generated models with random weights/,
  );
});

test("real models, or models without a name, get no warning", async () => {
  assert.equal(testModelNotice(readManifest(await runWithManifest(["Qwen2.5 1.5B Instruct", undefined]))), undefined);
  assert.equal(testModelNotice(undefined), undefined);
});

test("tables.md opens with the warning when some model had random weights", async () => {
  const dir = await runWithManifest([undefined, tinyModelName("random", "tiny", 1)]);
  const { records } = readAnswerLog(path.join(dir, "answers.jsonl"));
  writeTables(dir, records, ["kv-cache-inference"], { sections: 3 });
  const first = readFileSync(path.join(dir, "tables.md"), "utf8").split("\n")[0]!;
  assert.match(
    first,
    /^> \*\*Random weights\.\*\* Some of this run's models are blogqa's generated models with random weights \(blogqa random tiny qwen2, seed 1\)/,
  );
});
