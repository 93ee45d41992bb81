// Which tokens a reply's text leaves out: the rule read from a tokenizer_config.json's added_tokens_decoder (the
// study's skip_special_tokens=True), llama.cpp's without one, and where the file is found (a local stand-in hub).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Token } from "node-llama-cpp";
import { UserError } from "../../src/common/errors.ts";
import { hubConfigDir } from "../../src/llm/hub-config.ts";
import { resolveSpecialTokens } from "../../src/llm/resolve-decoding.ts";
import { decodeReply, type Detokenizer } from "../../src/llm/sequence-runtime.ts";
import { readTokenizerConfig, specialIdSet, specialIds } from "../../src/llm/special-tokens.ts";

const dirs: string[] = [];
const temporary = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "special-tokens-"));
  dirs.push(dir);
  return dir;
};
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const added = (content: string, special: boolean) => ({
  content,
  lstrip: false,
  normalized: false,
  rstrip: false,
  single_word: false,
  special,
});

/** Part of Qwen2.5's added_tokens_decoder, as its tokenizer_config.json spells it. */
const QWEN25_ADDED = {
  "151643": added("<|endoftext|>", true),
  "151644": added("<|im_start|>", true),
  "151645": added("<|im_end|>", true),
  "151657": added("<tool_call>", false),
  "151658": added("</tool_call>", false),
  "151659": added("<|fim_prefix|>", false),
  "151664": added("<|file_sep|>", false),
};

/**
 * A vocabulary typed as llama.cpp loads Qwen2.5's: <|...|> tokens are control tokens (the FIM ones forced so), the
 * tool-call tags user-defined, and some control tokens also end generation ("</s>", <|file_sep|>, <|im_end|>).
 */
const VOCAB: Readonly<Record<number, { readonly text: string; readonly control?: true; readonly eog?: true }>> = {
  1: { text: "hi" },
  2: { text: " there" },
  128247: { text: "</s>", control: true, eog: true },
  151643: { text: "<|endoftext|>", control: true, eog: true },
  151644: { text: "<|im_start|>", control: true },
  151645: { text: "<|im_end|>", control: true, eog: true },
  151657: { text: "<tool_call>" },
  151658: { text: "</tool_call>" },
  151659: { text: "<|fim_prefix|>", control: true },
  151664: { text: "<|file_sep|>", control: true, eog: true },
};

const fakeModel = {
  detokenize: (tokens: readonly Token[], special = false) =>
    tokens.map((t) => (VOCAB[t]!.control && !special ? "" : VOCAB[t]!.text)).join(""),
  isEogToken: (t: Token | undefined) => t !== undefined && VOCAB[t]?.eog === true,
  tokenize: (text: string) =>
    Object.entries(VOCAB)
      .filter(([, v]) => v.text === text)
      .map(([id]) => Number(id) as Token),
} as unknown as Detokenizer;

const ids = (...xs: number[]) => xs as Token[];

test("the special ids are those added_tokens_decoder marks special, sorted; a malformed one says what is wrong", () => {
  assert.deepEqual(specialIds(QWEN25_ADDED), [151643, 151644, 151645]);
  assert.deepEqual(specialIds({}), []);
  assert.equal(specialIds([]), "is not an object");
  assert.equal(specialIds({ x: added("a", true) }), 'has the key "x", not a token id');
  assert.equal(specialIds({ "5": { content: "a" } }), 'has no "special": true or false for token 5');
});

test("by the tokenizer config's rule, only tokens it marks special are left out; llama.cpp's drops every control token", () => {
  const special = new Set(specialIds(QWEN25_ADDED) as number[]);
  const reply = ids(1, 151659, 2, 151664, 128247, 151657, 1, 151658, 151645);
  assert.equal(
    decodeReply(fakeModel, reply, [], special),
    "hi<|fim_prefix|> there<|file_sep|></s><tool_call>hi</tool_call>",
  );
  assert.equal(decodeReply(fakeModel, reply), "hi there<tool_call>hi</tool_call>");
  // An ordinary reply comes out the same by either rule.
  const ordinary = ids(1, 2, 151657, 1, 151658, 151645);
  assert.equal(decodeReply(fakeModel, ordinary, [], special), "hi there<tool_call>hi</tool_call>");
  assert.equal(decodeReply(fakeModel, ordinary), decodeReply(fakeModel, ordinary, [], special));
  // A format's markers stay whichever rule applies, even a token the config marks special.
  assert.equal(decodeReply(fakeModel, ids(151644, 1, 151645), ["<|im_start|>"], special), "<|im_start|>hi");
  assert.equal(decodeReply(fakeModel, ids(151644, 1, 151645), ["<|im_start|>"]), "<|im_start|>hi");
});

function writeConfig(dir: string, value: unknown): string {
  const file = path.join(dir, "tokenizer_config.json");
  fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

test("a tokenizer_config.json sets the rule with its sha256; one without added_tokens_decoder leaves llama.cpp's", () => {
  const file = writeConfig(temporary(), { added_tokens_decoder: QWEN25_ADDED, model_max_length: 131072 });
  const rule = readTokenizerConfig(file, null);
  assert.ok(rule.source === "tokenizer_config.json");
  assert.deepEqual(rule.special, [151643, 151644, 151645]);
  assert.equal(rule.sha256.length, 64);
  assert.equal(
    rule.note,
    `replies leave out the 3 tokens the tokenizer config (${file}) marks special; every other keeps its text`,
  );
  assert.deepEqual(specialIdSet(rule), new Set([151643, 151644, 151645]));

  const bare = writeConfig(temporary(), { model_max_length: 131072 });
  assert.deepEqual(readTokenizerConfig(bare, null), {
    source: "gguf",
    note: `replies leave out llama.cpp's control tokens (the GGUF's token types): ${bare} has no added_tokens_decoder`,
  });
  assert.equal(specialIdSet(readTokenizerConfig(bare, null)), null);

  for (const bad of ["{", { added_tokens_decoder: [] }, { added_tokens_decoder: { "1": {} } }]) {
    const badFile = writeConfig(temporary(), bad);
    assert.throws(
      () => readTokenizerConfig(badFile, null),
      (e: Error) => e instanceof UserError && e.message.includes(badFile) && !e.message.includes("\n"),
    );
  }
});

/** A stand-in for the hub: serves each repository's tokenizer_config.json and names its commit, as the hub does. */
async function fakeHub(body: string, commit: string) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    if (!/^\/[^/]+\/[^/]+\/resolve\/[^/]+\/tokenizer_config\.json$/.test(req.url ?? "")) {
      res.writeHead(404).end("Entry not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/json", "x-repo-commit": commit }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("a study model's tokenizer config comes from $HF_ENDPOINT at the pinned revision, once; offline, llama.cpp's rule and why", async () => {
  const body = JSON.stringify({ added_tokens_decoder: QWEN25_ADDED });
  const hub = await fakeHub(body, "f".repeat(40));
  const cacheDir = temporary();
  const id = "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-fp16.gguf";
  const modelPath = path.join(cacheDir, "models", "hf_Qwen_qwen2.5-1.5b-instruct-fp16.gguf");
  const pinned = "989aa7980e4cf806f80c7fef2b1adb7bc71aa306";
  const dir = hubConfigDir(path.join(cacheDir, "models"), "Qwen/Qwen2.5-1.5B-Instruct");
  const endpoint = process.env.HF_ENDPOINT;
  process.env.HF_ENDPOINT = hub.url;
  try {
    const rule = await resolveSpecialTokens(id, modelPath, { cacheDir });
    await hub.close();
    assert.deepEqual(hub.requests, [`/Qwen/Qwen2.5-1.5B-Instruct/resolve/${pinned}/tokenizer_config.json`]);
    assert.ok(rule.source === "tokenizer_config.json");
    assert.equal(rule.path, path.join(dir, "tokenizer_config.json"));
    assert.deepEqual(rule.hub, { repo: "Qwen/Qwen2.5-1.5B-Instruct", revision: pinned });
    assert.deepEqual(rule.special, [151643, 151644, 151645]);
    assert.equal(fs.readFileSync(rule.path, "utf8"), body);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, "tokenizer_config.source.json"), "utf8")).revision, pinned);
    // the hub is gone: the cached copy answers
    assert.deepEqual(await resolveSpecialTokens(id, modelPath, { cacheDir }), rule);
    // nothing cached for the 3B: llama.cpp's rule, saying why and where the file would go
    const id3b = "hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-q8_0.gguf";
    const offline = await resolveSpecialTokens(id3b, modelPath, { cacheDir });
    assert.equal(offline.source, "gguf");
    const place = path.join(
      hubConfigDir(path.join(cacheDir, "models"), "Qwen/Qwen2.5-3B-Instruct"),
      "tokenizer_config.json",
    );
    assert.match(
      offline.note,
      /^replies leave out llama\.cpp's control tokens \(the GGUF's token types\): cannot fetch /,
    );
    assert.ok(offline.note.endsWith(`Put it at ${place} to decode as the study did.`), offline.note);
  } finally {
    if (endpoint === undefined) delete process.env.HF_ENDPOINT;
    else process.env.HF_ENDPOINT = endpoint;
  }
});

test("another model's tokenizer config is the one beside its GGUF; none there, llama.cpp's rule", async () => {
  const dir = temporary();
  const model = path.join(dir, "m.gguf");
  assert.deepEqual(await resolveSpecialTokens(model, model, { cacheDir: dir }), {
    source: "gguf",
    note: "replies leave out llama.cpp's control tokens (the GGUF's token types): no tokenizer_config.json beside m.gguf",
  });
  const file = writeConfig(dir, { added_tokens_decoder: QWEN25_ADDED });
  const rule = await resolveSpecialTokens(model, model, { cacheDir: dir });
  assert.ok(rule.source === "tokenizer_config.json");
  assert.deepEqual([rule.path, rule.hub], [file, null]);
});
