// The tiny llama model: llama.cpp loads it, its tokenizer is Llama 3.1's, and a run on it speaks the llama3 format.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadModel } from "../../src/llm/index.ts";
import { decodeReply } from "../../src/llm/sequence-runtime.ts";
import { sharedLlama } from "../../src/llm/load-model.ts";
import { readManifest } from "../../src/runs/index.ts";
import { runCli } from "../helpers/run-cli.ts";
import { testCacheDir, tinyLlamaPath } from "../helpers/tiny-model.ts";

test("llama.cpp reads it as a llama model with Llama 3.1's special tokens, each one token", async () => {
  const model = await loadModel(tinyLlamaPath(), { cacheDir: testCacheDir, gpu: false, vocabOnly: true });
  try {
    assert.equal(model.info.architecture, "llama");
    // <|begin_of_text|>, <|start_header_id|>, "user", <|end_header_id|>, <|python_tag|>, <|eot_id|>
    const text = "<|begin_of_text|><|start_header_id|>user<|end_header_id|><|python_tag|><|eot_id|>";
    assert.equal(model.countTokens(text), 6);
    assert.ok(model.template.source.includes("<|python_tag|>"));
  } finally {
    await model.dispose();
  }
});

test("a run on it detects the llama3 format from its template, prints and records it, and forces a call its way", () => {
  const out = mkdtempSync(path.join(tmpdir(), "blogqa-llama-"));
  const args = ["--retriever", "bm25", "--max-new-tokens", "24", "--threads", "1", "--limit", "2"];
  const r = runCli(["run", "--model", tinyLlamaPath(), ...args, "--designs", "study", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /tool-call format llama3 \(the template has the ipython role\)/);
  assert.equal(readManifest(out)!.models[0]?.toolFormat, "llama3");
  const lines = readFileSync(path.join(out, "answers.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 8);
  const forced = lines.find((l) => l.design === "agent-forced");
  assert.ok(forced.transcript.calls[0].reply.startsWith('{"name": "'));
  assert.match(forced.transcript.calls[0].messages[0].content, /^You answer questions about a technical blog/);
});

test("`template` on it writes the study's example in Llama 3's own format, results in an ipython turn", () => {
  const r = runCli(["template", "--model", tinyLlamaPath(), "--cache-dir", testCacheDir]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /template: tool-call format llama3 \(the template has the ipython role\)/);
  assert.ok(r.stdout.includes('{"name": "search_posts", "parameters": {"query": "online softmax running maximum"}}'));
  assert.ok(r.stdout.includes("<|start_header_id|>ipython<|end_header_id|>"));
});

test("a format's control-token markers stay in the reply when asked for; nothing else changes", async () => {
  const llama = await sharedLlama(false);
  const vocab = await llama.loadModel({ modelPath: tinyLlamaPath(), vocabOnly: true });
  try {
    const call = '{"name": "search_posts", "parameters": {"query": "x"}}';
    const tokens = vocab.tokenize(`<|python_tag|>${call}<|eom_id|><|eot_id|>`, true);
    assert.equal(tokens[0], 128010);
    assert.equal(decodeReply(vocab, tokens), call); // dropped, as before
    assert.equal(decodeReply(vocab, tokens, ["<|python_tag|>"]), `<|python_tag|>${call}`);
    // <|eom_id|> ends the reply (llama.cpp counts it among the end tokens), and end tokens are never text.
    assert.equal(decodeReply(vocab, tokens, ["<|python_tag|>", "<|eom_id|>"]), `<|python_tag|>${call}`);
    assert.equal(decodeReply(vocab, tokens, ["not one token"]), call);
  } finally {
    await vocab.dispose();
  }
});
