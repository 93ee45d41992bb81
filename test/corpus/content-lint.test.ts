// Lints the real blog in content/posts/ against issue 2's floors, counted by the project's own indexer.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadCorpus, type Post } from "../../src/corpus/index.ts";
import { repoRoot } from "../helpers/run-cli.ts";

const corpus = await loadCorpus(path.join(repoRoot, "content/posts"));

/** Words a reader sees: headings and section text (code included), after the parser's cleanup. */
const wordCount = (post: Post) => post.sections.reduce((n, s) => n + `${s.heading} ${s.text}`.split(/\s+/).filter(Boolean).length, 0);

test("the blog has at least 24 posts and 350 sections", () => {
  assert.ok(corpus.posts.length >= 24, `${corpus.posts.length} posts`);
  assert.ok(corpus.sections.length >= 350, `${corpus.sections.length} sections`);
});

test("every post has 10 to 22 sections and 1,500 to 3,000 words", () => {
  const off = corpus.posts
    .map((post) => ({ slug: post.slug, sections: post.sections.length, words: wordCount(post) }))
    .filter((p) => p.sections < 10 || p.sections > 22 || p.words < 1500 || p.words > 3000);
  assert.deepEqual(off, []);
});

test("every post's frontmatter has title, description, date and tags", () => {
  const missing = corpus.posts.flatMap((post) =>
    ["title", "description", "date", "tags"].filter((field) => post.frontmatter[field] === undefined || post.frontmatter[field] === "").map((field) => `${post.slug}: ${field}`),
  );
  assert.deepEqual(missing, []);
  for (const post of corpus.posts) assert.ok(Array.isArray(post.frontmatter.tags) && post.frontmatter.tags.length > 0, `${post.slug}: tags must be a non-empty list`);
});

test("no slug is a substring of another (the strict scorer matches slugs as substrings)", () => {
  const slugs = corpus.posts.map((p) => p.slug);
  const clashes = slugs.flatMap((a) => slugs.filter((b) => a !== b && b.includes(a)).map((b) => `${a} is inside ${b}`));
  assert.deepEqual(clashes, []);
});
