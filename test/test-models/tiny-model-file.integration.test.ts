// The tiny model file: byte-identical for the same arguments, reused when up to date, and carrying Qwen2.5's vocabulary and template.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { ensureTinyModel } from "../../src/test-models/index.ts";
import { llamaCppBundlePath, QWEN25_TEMPLATE_PATH } from "../../src/test-models/gguf/qwen25-template.ts";
import { loadQwenVocab, TOKEN_TYPE } from "../../src/test-models/gguf/qwen-vocab.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

const sha256 = (file: string): string => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

test("the same arguments give byte-identical files; another seed gives another file", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tiny-model-"));
  try {
    const first = await ensureTinyModel({ out: path.join(dir, "a.gguf"), seed: 7, cacheDir: testCacheDir });
    const second = await ensureTinyModel({ out: path.join(dir, "b.gguf"), seed: 7, cacheDir: testCacheDir });
    const other = await ensureTinyModel({ out: path.join(dir, "c.gguf"), seed: 8, cacheDir: testCacheDir });
    assert.equal(first.reused || second.reused, false);
    assert.equal(sha256(first.path), sha256(second.path));
    assert.equal(first.bytes, other.bytes);
    assert.notEqual(sha256(first.path), sha256(other.path));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("an up-to-date file is reused; a stale or missing stamp makes it written again", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tiny-model-"));
  try {
    const out = path.join(dir, "m.gguf");
    const options = { out, seed: 3, cacheDir: testCacheDir };
    assert.equal((await ensureTinyModel(options)).reused, false);
    assert.equal((await ensureTinyModel(options)).reused, true);
    assert.equal((await ensureTinyModel({ ...options, force: true })).reused, false);
    const stamp = JSON.parse(fs.readFileSync(`${out}.stamp.json`, "utf8")) as { generator: number };
    fs.writeFileSync(`${out}.stamp.json`, JSON.stringify({ ...stamp, generator: stamp.generator - 1 }));
    assert.equal((await ensureTinyModel(options)).reused, false);
    fs.truncateSync(out, 1000); // an interrupted copy: the size no longer matches the stamp
    const again = await ensureTinyModel(options);
    assert.equal(again.reused, false);
    assert.equal(fs.statSync(out).size, again.bytes);
    assert.deepEqual(fs.readdirSync(dir).sort(), ["m.gguf", "m.gguf.stamp.json"]); // no partial files left behind
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the vocabulary is Qwen2.5's: 151,936 rows, control and user-defined added tokens, padding rows unused", () => {
  const vocab = loadQwenVocab();
  assert.equal(vocab.tokens.length, 151936);
  assert.equal(vocab.merges.length, 151387);
  assert.equal(vocab.merges[0], "Ġ Ġ");
  const expect = (id: number, token: string, type: number): void => {
    assert.equal(vocab.tokens[id], token, `token ${id}`);
    assert.equal(vocab.tokenTypes[id], type, `type of ${token}`);
  };
  expect(0, "!", TOKEN_TYPE.normal);
  expect(151643, "<|endoftext|>", TOKEN_TYPE.control);
  expect(151644, "<|im_start|>", TOKEN_TYPE.control);
  expect(151645, "<|im_end|>", TOKEN_TYPE.control);
  expect(151657, "<tool_call>", TOKEN_TYPE.userDefined);
  expect(151658, "</tool_call>", TOKEN_TYPE.userDefined);
  expect(151664, "<|file_sep|>", TOKEN_TYPE.control);
  expect(151665, "[PAD151665]", TOKEN_TYPE.unused); // <tool_response> in Qwen3, absent from Qwen2.5
  expect(151935, "[PAD151935]", TOKEN_TYPE.unused);
});

test("the model's metadata: qwen2 shape, Qwen2.5-Instruct's special ids, and the bundle's chat template byte for byte", async () => {
  const file = await tinyModelPath();
  const info = await readGgufFileInfo(file, {
    logWarnings: false,
    ignoreKeys: ["tokenizer.ggml.tokens", "tokenizer.ggml.merges", "tokenizer.ggml.token_type"],
  });
  assert.equal(info.metadata.general.architecture, "qwen2");
  const qwen2 = info.architectureMetadata;
  assert.equal(qwen2.embedding_length, 64);
  assert.equal(qwen2.block_count, 2);
  assert.equal(qwen2.attention?.head_count, 4);
  assert.equal(qwen2.attention?.head_count_kv, 2);
  const tokenizer = info.metadata.tokenizer;
  assert.equal(tokenizer.ggml.model, "gpt2");
  assert.equal(tokenizer.ggml.pre, "qwen2");
  assert.equal(tokenizer.ggml.eos_token_id, 151645);
  assert.equal(tokenizer.ggml.padding_token_id, 151643);
  assert.equal(tokenizer.ggml.add_bos_token, false);
  // its own output layer: a tied one would make greedy decoding repeat one token
  const names = new Set(info.tensorInfo?.map((t) => t.name));
  assert.ok(names.has("output.weight") && names.has("token_embd.weight") && names.has("blk.1.attn_q.bias"));

  // read the template again, straight from the bundle, independently of the generator's cache
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bundle-"));
  try {
    execFileSync("git", ["init", "-q", "--bare", scratch]);
    execFileSync("git", ["-C", scratch, "fetch", "-q", llamaCppBundlePath(), "HEAD:refs/heads/bundle"]);
    const expected = execFileSync("git", ["-C", scratch, "show", `bundle:${QWEN25_TEMPLATE_PATH}`], {
      encoding: "utf8",
    });
    assert.match(expected, /<tool_call>/);
    assert.equal(tokenizer.chat_template, expected);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
