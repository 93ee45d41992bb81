// openIndex: the three retrievers, section lookup, and the disk cache (reuse, rebuild when stale) with a fake embedder.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadCorpus } from "../../src/corpus/index.ts";
import { openIndex, type RetrieverKind, type SearchOptions } from "../../src/search/index.ts";
import { reciprocalRankFusion } from "../../src/search/fusion.ts";
import { embeddingText } from "../../src/search/open-index.ts";
import type { Embedder } from "../../src/search/types.ts";
import { fakeEmbedder } from "../helpers/fake-embedder.ts";

const fixturePosts = path.resolve(import.meta.dirname, "../fixtures/blog/posts");

/** A private copy of the fixture blog and an empty cache folder, removed after the test. */
function sandbox(t: { after: (fn: () => void) => void }): { posts: string; cacheDir: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), "blogqa-index-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const posts = path.join(root, "posts");
  cpSync(fixturePosts, posts, { recursive: true });
  return { posts, cacheDir: path.join(root, "cache") };
}

const options = (cacheDir: string, retriever: RetrieverKind): SearchOptions => ({
  retriever,
  // A model that cannot exist: any attempt to load it would fail the test.
  embeddingModel: "/nonexistent/blogqa-test-model",
  dtype: "fp32",
  cacheDir,
});

const QUERY = "How can a running maximum and running sum compute softmax in one pass?";

test("bm25 loads no embedding model and returns the study's hits", async (t) => {
  const { posts, cacheDir } = sandbox(t);
  const index = await openIndex(await loadCorpus(posts), options(cacheDir, "bm25"));
  assert.equal(index.embedding, undefined);
  assert.equal(index.fromCache, false);
  const hits = await index.search(QUERY);
  assert.equal(hits.length, 3);
  assert.deepEqual(hits[0], {
    post: "softmax-basics",
    heading: "Online softmax with a running sum",
    snippet:
      "The online softmax keeps a running maximum and a running sum, rescaling the sum whenever a new maximum appears, so one pass over the scores is enough.",
  });
  assert.equal((await index.search(QUERY, 1)).length, 1);
  await assert.rejects(index.search(QUERY, 0), /at least 1/);
});

test("section() looks a section up by post and heading, disambiguated names included", async (t) => {
  const { posts, cacheDir } = sandbox(t);
  const index = await openIndex(await loadCorpus(posts), options(cacheDir, "bm25"));
  assert.equal(index.section("kitchen-sink", "A repeated heading (2)")?.text, "Second body.");
  assert.equal(index.section("kitchen-sink", "a repeated heading"), undefined);
  assert.equal(index.section("no-such-post", "Cosine similarity"), undefined);
});

test("dense and hybrid rank with the given embedder; hybrid fuses both rankings", async (t) => {
  const { posts, cacheDir } = sandbox(t);
  const corpus = await loadCorpus(posts);
  for (const retriever of ["dense", "hybrid"] as const) {
    const embedder = fakeEmbedder();
    const index = await openIndex(corpus, { ...options(path.join(cacheDir, retriever), retriever), embedder });
    assert.deepEqual(index.embedding, embedder.info);
    assert.equal(embedder.calls.length, corpus.sections.length, "every section embedded once");
    assert.equal((await index.search("cosine similarity unit vectors dot product"))[0]?.heading, "Cosine similarity");
    assert.equal(
      (await index.search("x", corpus.sections.length)).length,
      corpus.sections.length,
      `${retriever} ranks every section`,
    );
  }
});

test("hybrid's ranking is the reciprocal rank fusion of the bm25 and dense rankings", async (t) => {
  const { posts, cacheDir } = sandbox(t);
  const corpus = await loadCorpus(posts);
  const all = corpus.sections.length;
  const names = (hits: { post: string; heading: string }[]) => hits.map((h) => `${h.post}/${h.heading}`);
  const open = (retriever: RetrieverKind) =>
    openIndex(corpus, { ...options(cacheDir, retriever), embedder: fakeEmbedder() });
  const [bm25, dense, hybrid] = await Promise.all([open("bm25"), open("dense"), open("hybrid")]);
  for (const query of [QUERY, "cosine similarity", "tables"]) {
    const expected = reciprocalRankFusion([
      names(await bm25.search(query, all)),
      names(await dense.search(query, all)),
    ]).map((f) => f.item);
    assert.deepEqual(names(await hybrid.search(query, all)), expected);
  }
});

test("hybrid: a BM25 hit and a dense hit that tie in the fusion come BM25's first", async (t) => {
  const { posts, cacheDir } = sandbox(t);
  const corpus = await loadCorpus(posts);
  const bm25 = await openIndex(corpus, options(path.join(cacheDir, "bm25"), "bm25"));
  const [a, b] = await bm25.search(QUERY, 2);
  const text = (hit: typeof a) =>
    embeddingText(corpus.sections.find((s) => s.post === hit!.post && s.heading === hit!.heading)!);
  // Dense ranks BM25's second hit first and its first second, every other section below both (cosine 0): each of
  // the two is first in one ranking and second in the other, so their fused scores and best ranks tie exactly.
  const [aText, bText] = [text(a), text(b)];
  const embedder: Embedder = {
    info: { model: "fake/tie", dtype: "fp32", library: "fake@1", dimensions: 3 },
    async embed(texts) {
      return texts.map(
        (s) => new Float32Array(s === bText || s === QUERY ? [1, 0, 0] : s === aText ? [0.8, 0.6, 0] : [0, 0, 1]),
      );
    },
  };
  const open = (retriever: RetrieverKind) =>
    openIndex(corpus, { ...options(path.join(cacheDir, retriever), retriever), embedder });
  const names = (hits: readonly { post: string; heading: string }[]) => hits.map((h) => `${h.post}/${h.heading}`);
  assert.deepEqual(names(await (await open("dense")).search(QUERY, 2)), names([b!, a!]));
  const fused = reciprocalRankFusion([names([a!, b!]), names([b!, a!])]);
  assert.equal(fused[0]!.score, fused[1]!.score, "a full tie");
  // The study names BM25 first ("a hybrid of BM25 and MiniLM embeddings"); the fusion's last tie-break is the order
  // of its rankings, and hybrid passes BM25's first: fused the other way round, the dense hit would lead.
  assert.deepEqual(names(await (await open("hybrid")).search(QUERY, 2)), names([a!, b!]));
});

test("a second open loads the cache without re-embedding and gives equal results", async (t) => {
  const { posts, cacheDir } = sandbox(t);
  const corpus = await loadCorpus(posts);
  const first = fakeEmbedder();
  const built = await openIndex(corpus, { ...options(cacheDir, "hybrid"), embedder: first });
  const second = fakeEmbedder();
  const cached = await openIndex(await loadCorpus(posts), { ...options(cacheDir, "hybrid"), embedder: second });
  assert.equal(built.fromCache, false);
  assert.equal(cached.fromCache, true);
  assert.deepEqual(second.calls, [], "no section re-embedded");
  for (const query of [QUERY, "approximate nearest neighbour", "tables and math"]) {
    assert.deepEqual(await cached.search(query, 5), await built.search(query, 5));
  }
  assert.deepEqual(second.calls, [QUERY, "approximate nearest neighbour", "tables and math"]);
  // Two parts: BM25 state in JSON, embeddings as a manifest beside a Float32 file.
  const files = readdirSync(path.join(cacheDir, "index"))
    .map((f) => f.replace(/-[0-9a-f]{16}/, "-*"))
    .sort();
  assert.deepEqual(files, ["bm25-*.json", "embeddings-*.f32", "embeddings-*.json"]);
  // dense and bm25 reuse those parts: nothing is embedded again.
  const third = fakeEmbedder();
  assert.equal((await openIndex(corpus, { ...options(cacheDir, "dense"), embedder: third })).fromCache, true);
  assert.equal((await openIndex(corpus, options(cacheDir, "bm25"))).fromCache, true);
  assert.deepEqual(third.calls, []);
});

test("changing a post's content rebuilds the index, and the new text is searchable", async (t) => {
  const { posts, cacheDir } = sandbox(t);
  await openIndex(await loadCorpus(posts), options(cacheDir, "bm25"));
  assert.equal((await openIndex(await loadCorpus(posts), options(cacheDir, "bm25"))).fromCache, true);
  const file = path.join(posts, "vector-search.mdx");
  writeFileSync(
    file,
    `${(await import("node:fs")).readFileSync(file, "utf8")}\n## Product quantization\n\nCodebooks compress vectors.\n`,
  );
  const messages: string[] = [];
  const rebuilt = await openIndex(await loadCorpus(posts), {
    ...options(cacheDir, "bm25"),
    onProgress: (m) => messages.push(m),
  });
  assert.equal(rebuilt.fromCache, false);
  assert.match(messages.join("\n"), /posts changed.*rebuilding/);
  assert.equal((await rebuilt.search("codebooks"))[0]?.heading, "Product quantization");
  assert.equal((await openIndex(await loadCorpus(posts), options(cacheDir, "bm25"))).fromCache, true);
});

test("another embedding model, dtype or library version is a stale cache, never reused", async (t) => {
  const { posts, cacheDir } = sandbox(t);
  const corpus = await loadCorpus(posts);
  await openIndex(corpus, { ...options(cacheDir, "dense"), embedder: fakeEmbedder() });
  const library = fakeEmbedder({ library: "fake@2" });
  const reopened = await openIndex(corpus, { ...options(cacheDir, "dense"), embedder: library });
  assert.equal(reopened.fromCache, false);
  assert.equal(library.calls.length, corpus.sections.length);
  const dims = fakeEmbedder({ dimensions: 16 });
  assert.equal((await openIndex(corpus, { ...options(cacheDir, "dense"), embedder: dims })).fromCache, false);
  assert.equal(
    (await openIndex(corpus, { ...options(cacheDir, "dense"), embedder: fakeEmbedder({ dimensions: 16 }) })).fromCache,
    true,
  );
});

test("a damaged embeddings file or manifest is rebuilt, not trusted", async (t) => {
  const { posts, cacheDir } = sandbox(t);
  const corpus = await loadCorpus(posts);
  await openIndex(corpus, { ...options(cacheDir, "dense"), embedder: fakeEmbedder() });
  const dir = path.join(cacheDir, "index");
  const f32 = readdirSync(dir).find((f) => f.endsWith(".f32"))!;
  writeFileSync(path.join(dir, f32), new Uint8Array(8));
  const embedder = fakeEmbedder();
  assert.equal((await openIndex(corpus, { ...options(cacheDir, "dense"), embedder })).fromCache, false);
  assert.equal(embedder.calls.length, corpus.sections.length);
  const json = readdirSync(dir).find((f) => f.endsWith(".json"))!;
  writeFileSync(path.join(dir, json), "{ not json");
  assert.equal((await openIndex(corpus, { ...options(cacheDir, "dense"), embedder: fakeEmbedder() })).fromCache, false);
  assert.equal((await openIndex(corpus, { ...options(cacheDir, "dense"), embedder: fakeEmbedder() })).fromCache, true);
});
