// Offline with nothing downloaded, run and experiment name every missing file at once, with options they really take.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseModelUri } from "../../node_modules/node-llama-cpp/dist/utils/parseModelUri.js";
import { DEFAULT_MODELS, QUANTS, defaultModelUri, hfLocalFileNames } from "../../src/llm/model-files.ts";
import { missingFiles } from "../../src/runs/offline-check.ts";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";

const OFFLINE = { HF_ENDPOINT: "http://127.0.0.1:9/" };
const emptyCache = () => mkdtempSync(path.join(os.tmpdir(), "blogqa-offline-"));

test("the local names of the default models' files are node-llama-cpp's own, every split part included", () => {
  for (const model of DEFAULT_MODELS) {
    for (const quant of QUANTS) {
      const names = hfLocalFileNames(defaultModelUri(model.name, quant));
      assert.ok(names);
      assert.deepEqual(names.hubFiles, [...model.files[quant]]);
      const theirs = model.files[quant].map((file) => {
        const parsed = parseModelUri(`hf:${model.repo}/${file}`);
        assert.ok(parsed !== null && "fullFilename" in parsed);
        return parsed.fullFilename;
      });
      assert.deepEqual(names.localFiles, theirs);
    }
  }
});

test("missingFiles lists only what is absent, and nothing for bm25 or a local embedder folder", () => {
  const cacheDir = emptyCache();
  const needed = {
    models: [defaultModelUri("qwen2.5-3b")],
    retriever: "hybrid" as const,
    embeddingModel: "Xenova/all-MiniLM-L6-v2",
    embeddingDtype: "fp32" as const,
    cacheDir,
  };
  assert.deepEqual(
    missingFiles(needed).map((g) => g.files.length),
    [2, 1, 4],
  );
  mkdirSync(path.join(cacheDir, "models"));
  writeFileSync(path.join(cacheDir, "models", "hf_Qwen_qwen2.5-3b-instruct-fp16-00001-of-00002.gguf"), "");
  const partly = missingFiles(needed);
  assert.deepEqual(
    partly[0]!.files.map((f) => [f.name, f.bytes]),
    [["hf_Qwen_qwen2.5-3b-instruct-fp16-00002-of-00002.gguf", 2_820_129_120]],
  );
  assert.equal(missingFiles({ ...needed, retriever: "bm25" }).length, 2);
  assert.equal(missingFiles({ ...needed, embeddingModel: cacheDir }).length, 2);
});

test("experiment offline names both GGUFs (every part, with sizes) and MiniLM in one message, and only its own options", async () => {
  const cacheDir = emptyCache();
  const result = await runCliInProcess(["experiment", "--cache-dir", cacheDir], { env: OFFLINE });
  assert.equal(result.status, 1);
  const message = result.stderr;
  for (const file of [
    "hf_Qwen_qwen2.5-1.5b-instruct-fp16.gguf (3,560,416,288 bytes",
    "hf_Qwen_qwen2.5-3b-instruct-fp16-00001-of-00002.gguf (3,980,517,664 bytes",
    "hf_Qwen_qwen2.5-3b-instruct-fp16-00002-of-00002.gguf (2,820,129,120 bytes",
    "config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "onnx/model.onnx",
    "Qwen_Qwen2.5-1.5B-Instruct/ (from http://127.0.0.1:9/Qwen/Qwen2.5-1.5B-Instruct/blob/989aa7980e4cf806f80c7fef2b1adb7bc71aa306/generation_config.json)",
  ]) {
    assert.ok(message.includes(file), `${file} missing from:\n${message}`);
  }
  assert.ok(message.includes(`into ${path.join(cacheDir, "models")}/`));
  assert.ok(message.includes(`into ${path.join(cacheDir, "embedders", "Xenova/all-MiniLM-L6-v2")}/`));
  assert.doesNotMatch(message, /--model/);
  // The way to try a blog offline at all: the tiny models.
  assert.ok(
    message.includes("`blogqa smoke --content DIR --questions FILE` runs the whole study on your blog offline"),
  );
  // Every option the message names is one experiment takes.
  const help = (await runCliInProcess(["experiment", "--help"])).stdout;
  for (const option of message.match(/--[a-z-]+/g) ?? [])
    assert.ok(help.includes(option), `${option} is not an experiment option`);
});

test("run offline names --model as its way around, and no embedder with --retriever bm25", async () => {
  const result = await runCliInProcess(
    ["run", "--model", "qwen2.5-1.5b", "--retriever", "bm25", "--cache-dir", emptyCache()],
    {
      env: OFFLINE,
    },
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /2 files this run needs are not here/);
  assert.match(result.stderr, /--model PATH/);
  assert.doesNotMatch(result.stderr, /embedders|MiniLM/);
});

test("run offline on a local model names make-tiny-embedder as the way around MiniLM", async () => {
  const model = path.join(emptyCache(), "tiny.gguf");
  const result = await runCliInProcess(["run", "--model", model, "--cache-dir", emptyCache()], { env: OFFLINE });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /1 file|files this run needs are not here/);
  assert.match(result.stderr, /`blogqa make-tiny-embedder --out DIR` writes a random-weight one/);
  assert.match(result.stderr, /--retriever bm25 needs no embedding model/);
});

test("the study models' generation_config.json is needed only by --repetition-penalty auto without --generation-config", () => {
  const cacheDir = emptyCache();
  const needed = {
    models: [defaultModelUri("qwen2.5-1.5b")],
    retriever: "bm25" as const,
    embeddingModel: "x",
    embeddingDtype: "fp32" as const,
    cacheDir,
  };
  const names = (generationConfigs?: boolean) =>
    missingFiles({ ...needed, ...(generationConfigs === undefined ? {} : { generationConfigs }) }).flatMap((g) =>
      g.files.map((f) => f.name),
    );
  assert.ok(names().includes("generation_config.json"));
  assert.ok(names(true).includes("generation_config.json"));
  assert.ok(!names(false).includes("generation_config.json"));
});
