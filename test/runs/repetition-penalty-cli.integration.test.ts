// run --repetition-penalty on the tiny model: auto finds the generation_config.json beside it, the manifest records
// the penalty and where it came from, and a folder's runs cannot mix two decodings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "../helpers/run-cli.ts";
import { tinyModelPath } from "../helpers/tiny-model.ts";

const SLICE = [
  "--retriever",
  "bm25",
  "--max-new-tokens",
  "16",
  "--threads",
  "1",
  "--limit",
  "1",
  "--designs",
  "workflow",
];

test("auto reads the config beside the model into the manifest; none and another value are refused in that folder", {
  timeout: 300_000,
}, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-penalty-"));
  try {
    const model = path.join(dir, "tiny.gguf");
    symlinkSync(await tinyModelPath(), model);
    const config = `${JSON.stringify({ eos_token_id: [151645, 151643], repetition_penalty: 1.3 })}\n`;
    writeFileSync(path.join(dir, "generation_config.json"), config);
    const out = path.join(dir, "run");

    const auto = runCli(["run", "--model", model, ...SLICE, "--out", out]);
    assert.equal(auto.status, 0, auto.stderr);
    assert.equal(auto.stderr.match(/repetition penalty 1\.3 from the generation config/g)?.length, 1, auto.stderr);
    const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8"));
    assert.equal(manifest.settings.repetition_penalty, "auto");
    assert.equal(manifest.settings.generation_config, null);
    const decoding = manifest.models[0].decoding;
    assert.equal(decoding.repetitionPenalty, 1.3);
    assert.deepEqual(decoding.stopTokens, [151645, 151643]);
    assert.equal(decoding.generationConfig.path, path.join(dir, "generation_config.json"));
    assert.equal(decoding.generationConfig.sha256, createHash("sha256").update(config).digest("hex"));

    const none = runCli(["run", "--model", model, ...SLICE, "--out", out, "--repetition-penalty", "none"]);
    assert.equal(none.status, 1);
    assert.match(none.stderr, /repetition_penalty/);

    const bad = runCli([
      "run",
      "--model",
      model,
      ...SLICE,
      "--out",
      path.join(dir, "other"),
      "--repetition-penalty",
      "strong",
    ]);
    assert.equal(bad.status, 2, "a usage error");
    assert.match(bad.stderr, /--repetition-penalty must be auto, none or a positive number, got "strong"/);
    assert.doesNotMatch(bad.stderr, /\n\s+at /, "no stack trace");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
