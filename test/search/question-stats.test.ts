// questions stats on the fixture blog: shares of a question's BM25 terms in its section, its title, other posts.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadCorpus } from "../../src/corpus/index.ts";
import { questionStats } from "../../src/search/index.ts";

const posts = path.resolve(import.meta.dirname, "../fixtures/blog/posts");

test("a question worded like its section, against one that names its post, and a two-post question", async () => {
  const corpus = await loadCorpus(posts);
  const stats = questionStats(corpus, [
    {
      id: "a",
      question: "How can a running maximum and running sum compute softmax in one pass?",
      post: "softmax-basics",
      heading: "Online softmax with a running sum",
    },
    { id: "b", question: "What are softmax basics?", post: "softmax-basics", heading: "The softmax formula" },
    {
      id: "c",
      question: "Cosine similarity or a running sum?",
      posts: ["vector-search", "softmax-basics"],
      headings: ["Cosine similarity", "Online softmax with a running sum"],
    },
  ]);
  const [a, b, c] = stats.questions;
  // a: terms {can, run, maximum, sum, comput, softmax, one, pass}; "can" and "comput" are not in the section.
  assert.deepEqual(a, {
    id: "a",
    terms: 8,
    in_section: 0.75,
    in_title: 0.125,
    in_other_posts: a!.in_other_posts,
    slug_terms_found: 1,
    slug_terms: 2,
    names_slug: false,
  });
  // b: {softmax, basic} is exactly the slug's and the title's terms.
  assert.deepEqual([b!.terms, b!.in_title, b!.slug_terms_found, b!.names_slug], [2, 1, 2, true]);
  // c: either section and either title count; the other posts are those outside the pair (kitchen-sink only).
  assert.deepEqual([c!.terms, c!.in_section, c!.in_title, c!.slug_terms], [4, 1, 0, 4]);
  const kitchen = questionStats(corpus, [
    { id: "k", question: "Cosine similarity or a running sum?", post: "kitchen-sink", heading: "Tables and math" },
  ]);
  assert.ok(c!.in_other_posts <= kitchen.questions[0]!.in_other_posts);
  assert.deepEqual(stats.total, {
    questions: 3,
    in_section: Math.round(((a!.in_section + b!.in_section + c!.in_section) / 3) * 1000) / 1000,
    in_title: Math.round(((a!.in_title + b!.in_title + c!.in_title) / 3) * 1000) / 1000,
    in_other_posts: Math.round(((a!.in_other_posts + b!.in_other_posts + c!.in_other_posts) / 3) * 1000) / 1000,
    names_slug: 1,
    slug_terms_any: 2,
  });
});
