// The real transformers.js loading and pooling path, on the generated tiny BERT: vectors, masks, truncation.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadEmbedder } from "../../src/search/embedder.ts";
import { tinyVocabulary } from "../../src/test-models/embedder/vocab.ts";
import type { Embedder } from "../../src/search/types.ts";
import { repoRoot } from "../helpers/run-cli.ts";
import { tinyEmbedderPath } from "../helpers/tiny-embedder.ts";

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-emb-embedder-"));
after(() => fs.rmSync(cacheDir, { recursive: true, force: true }));
// An unreachable hub: any attempt to download would fail, so a load that succeeds read only local files.
const noHub = "http://127.0.0.1:1/";
let loaded: Promise<Embedder> | undefined;
const embedder = () => (loaded ??= loadEmbedder(tinyEmbedderPath(), { dtype: "fp32", cacheDir, remoteHost: noHub }));

function maxDifference(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  return Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));
}

// Words that are whole tokens of the tiny vocabulary: n of them make exactly n word pieces.
const singlePieceWords = tinyVocabulary().filter((t) => /^[a-z]{3,}$/.test(t));
const words = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => singlePieceWords[(i + offset) % singlePieceWords.length]).join(" ");

test("the tiny model loads from its folder with the hub unreachable, and says what it is", async () => {
  const { info } = await embedder();
  const version = (
    JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules/@huggingface/transformers/package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  assert.equal(info.model, tinyEmbedderPath());
  assert.equal(info.dtype, "fp32");
  assert.equal(info.library, `@huggingface/transformers@${version}`);
  assert.equal(info.dimensions, 32);
  assert.match(info.fingerprint ?? "", /^sha256:[0-9a-f]{32}$/);
  assert.deepEqual(fs.readdirSync(cacheDir), [], "a local folder is not copied into the cache");
});

test("vectors are unit length with the model's dimension, one per text, in input order", async () => {
  const texts = ["hybrid search", "", "The attention mask hides padding.", words(40)];
  const vectors = await (await embedder()).embed(texts);
  assert.equal(vectors.length, texts.length);
  for (const v of vectors) {
    assert.ok(v instanceof Float32Array);
    assert.equal(v.length, 32);
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5, `norm ${Math.hypot(...v)}`);
  }
  // Order: each vector equals the text embedded alone (batches are length-sorted inside).
  for (const [i, text] of texts.entries())
    assert.ok(maxDifference(vectors[i]!, (await (await embedder()).embed([text]))[0]!) < 1e-5);
  assert.deepEqual(await (await embedder()).embed([]), []);
});

test("identical text gives identical vectors, within a batch and across calls", async () => {
  const e = await embedder();
  const [a, b] = await e.embed(["retrieval augmented generation", "retrieval augmented generation"]);
  assert.deepEqual(a, b);
  assert.deepEqual(
    (await e.embed(["retrieval augmented generation"]))[0],
    (await e.embed(["retrieval augmented generation"]))[0],
  );
  const [c] = await e.embed(["retrieval augmented generations"]);
  assert.ok(maxDifference(a!, c!) > 1e-3, "a different text gives a different vector");
});

test("mean pooling respects the attention mask: padding to a longer text changes nothing", async () => {
  const e = await embedder();
  const short = "small models answer questions";
  const [alone] = await e.embed([short]);
  const [padded, long] = await e.embed([short, words(120)]);
  assert.ok(maxDifference(alone!, padded!) < 1e-5, `differs by ${maxDifference(alone!, padded!)}`);
  assert.ok(maxDifference(alone!, long!) > 1e-2);
});

test("texts are cut at 256 word pieces ([CLS], 254 pieces, [SEP]), as sentence-transformers does", async () => {
  const e = await embedder();
  const [long, first254, first253, first255] = await e.embed([words(400), words(254), words(253), words(255)]);
  assert.ok(maxDifference(long!, first254!) < 1e-5, "the 146 pieces past the limit are ignored");
  assert.ok(maxDifference(first255!, first254!) < 1e-5, "257 pieces: cut to 256");
  assert.ok(maxDifference(first253!, first254!) > 1e-4, "within the limit every piece counts");
});

test("the tiny model carries word overlap: each text's nearest neighbour is the one sharing its words", async () => {
  // Random weights, but large word embeddings: mean-pooled vectors behave like a bag of words, so dense search
  // over the tiny model ranks lexically similar sections first, which search tests can rely on.
  const pairs = [
    ["river water flows to the ocean", "the ocean water and the river"],
    ["students study music at school", "music school for young students"],
    ["hybrid search fuses keyword and vector rankings", "vector search and keyword search fused into hybrid rankings"],
    ["the model answers questions about the blog", "questions the blog answers with a model"],
  ];
  const texts = pairs.flat();
  const vectors = await (await embedder()).embed(texts);
  const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
  for (const [i, v] of vectors.entries()) {
    const others = vectors
      .map((w, j) => ({ j, score: j === i ? -Infinity : cosine(v, w) }))
      .sort((a, b) => b.score - a.score);
    assert.equal(others[0]!.j, i ^ 1, `nearest to "${texts[i]}" is "${texts[others[0]!.j]}"`);
  }
});

test("one embed call reports progress after each batch of 32", async () => {
  const progress: string[] = [];
  const vectors = await (await embedder()).embed(
    Array.from({ length: 70 }, (_, i) => words(1 + (i % 9), i)),
    (done, total) => progress.push(`${done}/${total}`),
  );
  assert.equal(vectors.length, 70);
  assert.deepEqual(progress, ["32/70", "64/70", "70/70"]);
});
