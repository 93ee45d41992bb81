// Model ids: default names to Qwen's official files, split GGUF parts, files found locally without the network.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultModelUri, modelIdFor, modelsDir, DEFAULT_MODEL_NAMES } from "../../src/llm/index.ts";
import { downloadProgress, resolveModelFiles, splitParts } from "../../src/llm/model-files.ts";
import { withoutQueries } from "../../src/llm/hub-download.ts";
import { UserError } from "../../src/common/errors.ts";
import { missingFiles } from "../../src/runs/offline-check.ts";

test("default names map to Qwen's official GGUF files, f16 unless a quant is asked for", () => {
  assert.deepEqual(DEFAULT_MODEL_NAMES, ["qwen2.5-1.5b", "qwen2.5-3b"]);
  assert.equal(defaultModelUri("qwen2.5-1.5b"), "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-fp16.gguf");
  assert.equal(
    defaultModelUri("qwen2.5-3b"),
    "hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-fp16-00001-of-00002.gguf",
  );
  assert.equal(defaultModelUri("qwen2.5-3b", "q8_0"), "hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-q8_0.gguf");
  assert.equal(
    modelIdFor("Qwen2.5-1.5B", "q4_k_m"),
    "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-q4_k_m.gguf",
  );
  assert.equal(modelIdFor("models/x.gguf"), "models/x.gguf");
  assert.throws(() => defaultModelUri("qwen2.5-7b"), UserError);
});

test("any part of a split GGUF names all its parts", () => {
  assert.deepEqual(splitParts("/m/a-00002-of-00003.gguf"), [
    "/m/a-00001-of-00003.gguf",
    "/m/a-00002-of-00003.gguf",
    "/m/a-00003-of-00003.gguf",
  ]);
  assert.deepEqual(splitParts("/m/a.gguf"), ["/m/a.gguf"]);
});

test("files already in <cacheDir>/models are used without the network, every part of a split model", async () => {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-models-"));
  try {
    const dir = modelsDir(cacheDir);
    fs.mkdirSync(dir, { recursive: true });
    const names = [
      "hf_Qwen_qwen2.5-3b-instruct-fp16-00001-of-00002.gguf",
      "hf_Qwen_qwen2.5-3b-instruct-fp16-00002-of-00002.gguf",
    ];
    for (const [i, n] of names.entries()) fs.writeFileSync(path.join(dir, n), Buffer.alloc(10 + i));
    const files = await resolveModelFiles(defaultModelUri("qwen2.5-3b"), { cacheDir });
    assert.equal(files.path, path.join(dir, names[0]!));
    assert.deepEqual(
      files.files,
      names.map((n, i) => ({ path: path.join(dir, n), bytes: 10 + i })),
    );
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
});

test("a missing local file or split part is a UserError saying what to pass", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-models-"));
  try {
    await assert.rejects(
      resolveModelFiles(path.join(dir, "nope.gguf"), { cacheDir: dir }),
      (e: unknown) => e instanceof UserError && /No model file at .*nope\.gguf/.test(e.message),
    );
    const first = path.join(dir, "m-00001-of-00002.gguf");
    fs.writeFileSync(first, "x");
    await assert.rejects(
      resolveModelFiles(first, { cacheDir: dir }),
      (e: unknown) => e instanceof UserError && e.message.includes("m-00002-of-00002.gguf"),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("with HF_ENDPOINT set, a missing hub model is looked for at the mirror, never at huggingface.co", async () => {
  const saved = process.env.HF_ENDPOINT;
  process.env.HF_ENDPOINT = "http://127.0.0.1:9/";
  try {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-mirror-"));
    await assert.rejects(
      resolveModelFiles("hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-fp16.gguf", { cacheDir }),
      (e: unknown) =>
        e instanceof UserError &&
        e.message.startsWith(
          "Model hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-fp16.gguf is not in " +
            `${path.join(cacheDir, "models")} and 127.0.0.1:9 cannot be reached (offline?).`,
        ),
    );
    const missing = missingFiles({
      models: [defaultModelUri("qwen2.5-1.5b")],
      cacheDir,
      retriever: "bm25",
      embeddingModel: "Xenova/all-MiniLM-L6-v2",
      embeddingDtype: "fp32",
    });
    assert.deepEqual(
      missing.map((m) => m.from),
      [
        "http://127.0.0.1:9/Qwen/Qwen2.5-1.5B-Instruct-GGUF",
        "http://127.0.0.1:9/Qwen/Qwen2.5-1.5B-Instruct/blob/989aa7980e4cf806f80c7fef2b1adb7bc71aa306/generation_config.json",
      ],
    );
  } finally {
    if (saved === undefined) delete process.env.HF_ENDPOINT;
    else process.env.HF_ENDPOINT = saved;
  }
});

test("download progress: a line at most every 2 s, and one final line however often the downloader reports the end", () => {
  const lines: string[] = [];
  let clock = 0;
  const report = downloadProgress(
    (m) => lines.push(m),
    undefined,
    "x.gguf",
    () => clock,
  )!;
  report(1e9, 4e9); // the first report always shows
  clock = 1000;
  report(2e9, 4e9); // under 2 s later: not shown
  clock = 3000;
  report(3e9, 4e9);
  for (let i = 0; i < 40; i++) report(4e9, 4e9); // as ipull reports the end, over and over
  assert.deepEqual(lines, [
    "downloading x.gguf: 1.00 / 4.00 GB (25.0%)",
    "downloading x.gguf: 3.00 / 4.00 GB (75.0%)",
    "downloading x.gguf: 4.00 / 4.00 GB (100.0%)",
  ]);
});

test("no URL's query string is shown: a signed URL keeps its host and path", () => {
  const message =
    "Url: https://cas-bridge.xethub.hf.co/xet-bridge-us/abc/def?X-Amz-Signature=0123&X-Amz-Expires=3600, Status code: 403";
  assert.equal(withoutQueries(message), "Url: https://cas-bridge.xethub.hf.co/xet-bridge-us/abc/def Status code: 403");
});
