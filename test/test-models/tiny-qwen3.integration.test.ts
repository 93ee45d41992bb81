// The tiny qwen3 model: llama.cpp loads it with Qwen3's thinking tokens, and runs on it switch thinking off and on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadModel } from "../../src/llm/index.ts";
import { readManifest } from "../../src/runs/index.ts";
import { runCli } from "../helpers/run-cli.ts";
import { testCacheDir, tinyQwen3Path } from "../helpers/tiny-model.ts";

test("llama.cpp reads it as a qwen3 model whose <think> and </think> are one token each", async () => {
  const model = await loadModel(tinyQwen3Path(), { cacheDir: testCacheDir, gpu: false, vocabOnly: true });
  try {
    assert.equal(model.info.architecture, "qwen3");
    assert.equal(model.countTokens("<think></think><tool_call></tool_call>"), 4);
    assert.ok(model.template.source.includes("enable_thinking"));
  } finally {
    await model.dispose();
  }
});

function run(extra: readonly string[]) {
  const out = mkdtempSync(path.join(tmpdir(), "blogqa-qwen3-"));
  const args = ["--retriever", "bm25", "--max-new-tokens", "16", "--threads", "1", "--limit", "1"];
  const r = runCli(["run", "--model", tinyQwen3Path(), ...args, "--designs", "study", ...extra, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  const lines = readFileSync(path.join(out, "answers.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  return { stderr: r.stderr, manifest: readManifest(out)!, lines };
}

test("thinking is off by default and recorded; --thinking turns it on; both run the study's designs (hermes)", () => {
  const off = run([]);
  assert.match(off.stderr, /tool-call format hermes/);
  assert.match(off.stderr, /thinking off \(--thinking turns it on\)/);
  assert.equal(off.manifest.settings.thinking, false);
  const on = run(["--thinking"]);
  assert.match(on.stderr, /thinking on \(--thinking\)/);
  assert.equal(on.manifest.settings.thinking, true);
  // Off, the template writes an empty <think></think> block (and its newlines) after the generation prompt.
  const read = (r: typeof off) => r.lines.find((l) => l.design === "workflow").tokens_read as number;
  assert.ok(read(off) > read(on), `${read(off)} > ${read(on)}`);
  assert.equal(on.lines.length, 4);
});
