// A run's first lines on a machine where nvidia-smi answers but no CUDA runtime is found: the CUDA line, the fitted
// context and why (also in the manifest), the warm-up and the estimate; then each finished run's pace.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot, runCli } from "../helpers/run-cli.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

const fixtures = path.join(repoRoot, "test/fixtures/blog");

test("nvidia-smi answering without the CUDA runtime gets one line; the context, warm-up and estimate are said", async () => {
  const model = await tinyModelPath();
  const bin = mkdtempSync(path.join(tmpdir(), "blogqa-fake-nvidia-"));
  const smi = path.join(bin, "nvidia-smi");
  writeFileSync(smi, '#!/bin/sh\necho "NVIDIA GeForce RTX 4060 Laptop GPU"\n');
  chmodSync(smi, 0o755);
  const out = mkdtempSync(path.join(tmpdir(), "blogqa-first-lines-"));
  const result = runCli(
    [
      "run",
      ...["--model", model, "--retriever", "bm25", "--content", path.join(fixtures, "posts")],
      ...["--questions", path.join(fixtures, "questions.jsonl"), "--designs", "workflow", "--limit", "2"],
      ...["--max-new-tokens", "20", "--threads", "1", "--cache-dir", testCacheDir, "--out", out],
    ],
    // No CUDA runtime anywhere node-llama-cpp looks: nothing on LD_LIBRARY_PATH or CUDA_PATH (this machine has none).
    { env: { PATH: `${bin}:${process.env.PATH}`, LD_LIBRARY_PATH: "", CUDA_PATH: "" } },
  );
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stderr.split("\n");
  const cuda = lines.filter((l) => l.startsWith("note: an NVIDIA GPU answers nvidia-smi"));
  assert.equal(cuda.length, 1, result.stderr);
  assert.match(
    cuda[0]!,
    // what is missing here: a machine may hold part of a CUDA toolkit (libcudart without cuBLAS)
    /^note: an NVIDIA GPU answers nvidia-smi \(NVIDIA GeForce RTX 4060 Laptop GPU\), but llama\.cpp runs on cpu: node-llama-cpp's CUDA build needs the CUDA 13 runtime \((libcudart\.so\.13, )?libcublas\.so\.13, libcublasLt\.so\.13 not found/,
  );
  console.log(`the CUDA line as printed: ${cuda[0]}`);
  const context = lines.find((l) => / context \d+ tokens per sequence \(auto: /.test(l));
  assert.ok(context, result.stderr);
  assert.match(lines.find((l) => l.startsWith("warm-up on tiny-seed1.gguf: prompt ")) ?? "", /tokens\/s/);
  assert.match(
    lines.find((l) => l.startsWith("estimate: the 2 runs of tiny-seed1.gguf at most ")) ?? "",
    /published figures/,
  );
  // Each finished run's pace on the progress line: here plain lines, stderr being no terminal.
  assert.match(
    lines.find((l) => l.startsWith("runs of tiny-seed1.gguf: 2/2 runs, ")) ?? "",
    /\(workflow f2; [\d,]+ tokens\/s read and written\)$/,
    result.stderr,
  );
  const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8")) as {
    settings: { context_size: unknown };
    models: { contextSize: number; contextFit: { setting: unknown; floor: number; cap: number; reason: string } }[];
  };
  assert.equal(manifest.settings.context_size, "auto");
  const fit = manifest.models[0]!.contextFit;
  assert.deepEqual([fit.setting, fit.floor, fit.cap], ["auto", 4096, 32768]);
  assert.ok(manifest.models[0]!.contextSize >= 4096 && manifest.models[0]!.contextSize <= 32768);
  assert.ok(context.includes(fit.reason), "the line and the manifest give the same reason");
  console.log(`fitted: ${context}; manifest contextFit ${JSON.stringify(fit)}`);
});
