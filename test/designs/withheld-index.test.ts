// The withheld-source test's index: a question's gold section (or post) is never returned, read or listed.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadCorpus } from "../../src/corpus/index.ts";
import { openIndex } from "../../src/search/index.ts";
import { withheldIndex } from "../../src/designs/index.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const posts = path.resolve(import.meta.dirname, "../fixtures/blog/posts");
const folder = tempFolders("blogqa-withheld");
const GOLD = { posts: ["softmax-basics"], headings: ["The softmax formula"] };
const QUERY = "the softmax formula: each score exponentiated and divided by the sum of all exponentials";

async function index() {
  const corpus = await loadCorpus(posts);
  return openIndex(corpus, { retriever: "bm25", embeddingModel: "unused", dtype: "fp32", cacheDir: folder("cache") });
}

test("gold: searches rank as before without the gold section, which read_section no longer finds", async () => {
  const full = await index();
  const before = await full.search(QUERY, 4);
  assert.deepEqual(before[0], { ...before[0]!, post: "softmax-basics", heading: "The softmax formula" });
  const withheld = withheldIndex(full, GOLD, "gold");
  const after = await withheld.search(QUERY, 3);
  assert.deepEqual(
    after.map((h) => [h.post, h.heading]),
    before.slice(1).map((h) => [h.post, h.heading]),
  );
  // Every section the blog has, searched for by its own heading and text: the gold one never comes back.
  const corpus = await loadCorpus(posts);
  for (const s of corpus.sections) {
    const hits = await withheld.search(`${s.heading} ${s.text}`, corpus.sections.length);
    assert.ok(!hits.some((h) => h.post === "softmax-basics" && h.heading === "The softmax formula"), s.heading);
  }
  assert.equal(withheld.section("softmax-basics", "The softmax formula"), undefined);
  assert.ok(withheld.section("softmax-basics", "Subtracting the maximum for stability"));
  assert.ok(!withheld.headings("softmax-basics")?.includes("The softmax formula"));
  assert.deepEqual(withheld.posts(), full.posts());
});

test("gold-post: no section of the gold post is searched, read or listed", async () => {
  const full = await index();
  const withheld = withheldIndex(full, GOLD, "gold-post");
  const hits = await withheld.search(QUERY, 50);
  assert.ok(hits.length > 0);
  assert.ok(hits.every((h) => h.post !== "softmax-basics"));
  assert.equal(withheld.section("softmax-basics", "Subtracting the maximum for stability"), undefined);
  assert.equal(withheld.headings("softmax-basics"), undefined);
  assert.ok(!withheld.posts().includes("softmax-basics"));
  assert.equal(withheldIndex(full, GOLD, "none"), full);
});
