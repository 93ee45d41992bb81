// make-tiny-embedder: the same arguments write the same bytes, the folder is what transformers.js expects, the CLI works.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { loadEmbedder } from "../../src/search/embedder.ts";
import { writeTinyEmbedder } from "../../src/test-models/index.ts";
import { tinyEmbedderFiles } from "../../src/test-models/embedder/make-tiny-embedder.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const temporary = tempFolders("blogqa-emb");
const FILES = [
  "onnx/model.onnx",
  "config.json",
  "tokenizer.json",
  "tokenizer_config.json",
  "blogqa-tiny-embedder.json",
];

test("generating twice with the same arguments gives byte-identical files; another seed changes only the weights", () => {
  const a = tinyEmbedderFiles({ seed: 7, shape: "tiny" });
  const b = tinyEmbedderFiles({ seed: 7, shape: "tiny" });
  assert.deepEqual([...a.keys()], FILES);
  for (const file of FILES) assert.ok(Buffer.from(a.get(file)!).equals(Buffer.from(b.get(file)!)), file);
  const other = tinyEmbedderFiles({ seed: 8, shape: "tiny" });
  assert.ok(!Buffer.from(other.get("onnx/model.onnx")!).equals(Buffer.from(a.get("onnx/model.onnx")!)));
  assert.ok(
    Buffer.from(other.get("tokenizer.json")!).equals(Buffer.from(a.get("tokenizer.json")!)),
    "the vocabulary is fixed",
  );
  assert.ok(a.get("onnx/model.onnx")!.length < 1_000_000, "tiny stays under 1 MB");
});

test("the folder is laid out as transformers.js expects: a BERT config and a WordPiece tokenizer with BERT's specials", () => {
  const dir = writeTinyEmbedder(temporary("layout"), { seed: 1, shape: "tiny", hidden: 16 });
  const config = JSON.parse(fs.readFileSync(path.join(dir, "config.json"), "utf8"));
  assert.equal(config.model_type, "bert");
  assert.equal(config.hidden_size, 16);
  const tokenizer = JSON.parse(fs.readFileSync(path.join(dir, "tokenizer.json"), "utf8"));
  assert.equal(tokenizer.model.type, "WordPiece");
  assert.equal(tokenizer.normalizer.lowercase, true);
  assert.equal(tokenizer.pre_tokenizer.type, "BertPreTokenizer");
  assert.equal(tokenizer.post_processor.type, "TemplateProcessing");
  for (const special of ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    assert.equal(typeof tokenizer.model.vocab[special], "number", special);
  assert.ok(Object.keys(tokenizer.model.vocab).length > 1000);
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, "tokenizer_config.json"), "utf8")).model_max_length, 512);
});

test("--shape minilm has all-MiniLM-L6-v2's layers, heads and vocabulary rows, and loads", async () => {
  // A narrow hidden size keeps the test quick; the full shape (hidden 384) is what the benchmark times.
  const dir = writeTinyEmbedder(temporary("minilm"), { seed: 1, shape: "minilm", hidden: 24 });
  const config = JSON.parse(fs.readFileSync(path.join(dir, "config.json"), "utf8"));
  assert.deepEqual(
    [
      config.num_hidden_layers,
      config.num_attention_heads,
      config.intermediate_size,
      config.vocab_size,
      config.max_position_embeddings,
    ],
    [6, 12, 96, 30522, 512],
  );
  // A BERT-sized vocabulary, so that texts split into about as many pieces as with the real model.
  const vocab = JSON.parse(fs.readFileSync(path.join(dir, "tokenizer.json"), "utf8")).model.vocab as Record<
    string,
    number
  >;
  assert.equal(Object.keys(vocab).length, 30522);
  for (const word of ["retrieval", "fusion", "dense", "##ization"]) assert.equal(typeof vocab[word], "number", word);
  const embedder = await loadEmbedder(dir, { dtype: "fp32", cacheDir: temporary("minilm-cache") });
  const [v] = await embedder.embed(["six layers of attention"]);
  assert.equal(v!.length, 24);
  assert.ok(Math.abs(Math.hypot(...v!) - 1) < 1e-5);
});

test("CLI: make-tiny-embedder --out DIR writes the folder and prints its path; bad arguments exit 1 without a stack", () => {
  const out = path.join(temporary("cli"), "model");
  const result = runCli(["make-tiny-embedder", "--out", out, "--seed", "7"]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, `${out}\n`);
  const expected = tinyEmbedderFiles({ seed: 7, shape: "tiny" });
  for (const file of FILES)
    assert.ok(fs.readFileSync(path.join(out, file)).equals(Buffer.from(expected.get(file)!)), file);

  const bad = runCli(["make-tiny-embedder", "--out", out, "--hidden", "33"]);
  assert.equal(bad.status, 2); // a usage error, as every bad option value is
  assert.match(bad.stderr, /--hidden must be a positive multiple of 2/);
  assert.doesNotMatch(bad.stderr, /\n\s+at /);
  // A width that would need terabytes is refused up front, not a RangeError from a typed array.
  const huge = runCli(["make-tiny-embedder", "--out", out, "--hidden", "1e9"]);
  assert.equal(huge.stderr, "blogqa: --hidden must be a whole number from 1 to 1024, got 1000000000\n");
  assert.equal(huge.status, 2);
});
