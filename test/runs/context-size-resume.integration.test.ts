// The context size changes nothing a run logs while every prompt fits, so a folder resumes under another size: the
// measurement behind the resume rule (runs/manifest.ts, contextSizeChangeKeepsAnswers) on the tiny model.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot, runCli } from "../helpers/run-cli.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

const fixtures = path.join(repoRoot, "test/fixtures/blog");

/** answers.jsonl without the fields that time the calls. */
function answers(dir: string): string {
  return readFileSync(path.join(dir, "answers.jsonl"), "utf8").replace(/"seconds":[0-9.e+-]+/g, '"seconds":0');
}

test("runs at 4,096 and 32,768 tokens of context log the same transcripts, and a folder resumes across them", async () => {
  const model = await tinyModelPath();
  const run = (out: string, contextSize: number) =>
    runCli([
      "run",
      ...["--model", model, "--retriever", "bm25", "--content", path.join(fixtures, "posts")],
      ...["--questions", path.join(fixtures, "questions.jsonl"), "--designs", "workflow,agent,agent-forced"],
      ...["--max-new-tokens", "60", "--context-size", String(contextSize), "--threads", "1"],
      ...["--cache-dir", testCacheDir, "--out", out],
    ]);
  const small = mkdtempSync(path.join(tmpdir(), "blogqa-context-4096-"));
  const large = mkdtempSync(path.join(tmpdir(), "blogqa-context-32768-"));
  for (const [dir, size] of [
    [small, 4096],
    [large, 32768],
  ] as const) {
    const result = run(dir, size);
    assert.equal(result.status, 0, result.stderr);
  }
  assert.equal(answers(small), answers(large));

  const resumed = run(small, 32768);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stderr, /note: context size 4096 before, 32768 now: the largest logged call \(\d+ tokens/);
  assert.equal(answers(small), answers(large), "the resume found every run done and ran none");
  const manifest = JSON.parse(readFileSync(path.join(small, "manifest.json"), "utf8")) as {
    settings: { context_size: number };
  };
  assert.equal(manifest.settings.context_size, 32768, "the manifest records the size the folder now runs at");
});
