// run --fresh removes nothing until everything that can be checked without a model run has checked out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot, runCli } from "../helpers/run-cli.ts";
import { TOO_LARGE_CONTEXT, testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

const fixtures = path.join(repoRoot, "test/fixtures/blog");
const SEARCH = ["--retriever", "bm25", "--content", path.join(fixtures, "posts")];
const INPUTS = [...SEARCH, "--questions", path.join(fixtures, "questions.jsonl")];

/** A run folder holding a finished run's files (their content does not matter: they must survive untouched). */
function finishedRun(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-fresh-"));
  for (const file of ["answers.jsonl", "manifest.json", "tables.md", "study.csv", "strict.csv", "report.html"])
    writeFileSync(path.join(dir, file), `${file}\n`);
  return dir;
}

const contents = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map((f) => `${f}: ${readFileSync(path.join(dir, f), "utf8")}`);

test("run --fresh with a mistyped model, a file that is no GGUF, or missing questions leaves the folder as it was", () => {
  const dir = finishedRun();
  const before = contents(dir);
  const notGguf = path.join(dir, "..", `${path.basename(dir)}-not-a-model.gguf`);
  writeFileSync(notGguf, "not a model");
  const cases: [string[], RegExp][] = [
    [["--model", path.join(dir, "no-such-model.gguf"), ...INPUTS], /no-such-model\.gguf/],
    [["--model", notGguf, ...INPUTS], /Cannot read .*not-a-model\.gguf as a GGUF model/],
    [["--model", notGguf, ...SEARCH, "--questions", path.join(dir, "missing.jsonl")], /missing\.jsonl/],
  ];
  for (const [args, message] of cases) {
    const result = runCli(["run", ...args, "--fresh", "--out", dir]);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
    assert.deepEqual(contents(dir), before);
  }
});

test("run --fresh whose context cannot be allocated says so in one line and leaves the folder as it was", async () => {
  // The model loads and its format is placed; only making its context fails, which comes after both.
  const dir = finishedRun();
  const before = contents(dir);
  const model = await tinyModelPath();
  const result = runCli([
    ...["run", "--model", model, ...INPUTS, "--cache-dir", testCacheDir, "--threads", "1"],
    ...["--context-size", String(TOO_LARGE_CONTEXT), "--designs", "workflow", "--fresh", "--out", dir],
  ]);
  assert.equal(result.status, 1, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `^blogqa: model tiny-seed1\\.gguf: --context-size ${TOO_LARGE_CONTEXT} does not fit the .* free beside its weights; the largest that fits is --context-size \\d+ .*Nothing logged is lost`,
      "m",
    ),
  );
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
  assert.deepEqual(contents(dir), before);
});
