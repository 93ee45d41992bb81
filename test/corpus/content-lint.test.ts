// Lints the real blog in content/posts/ against the corpus floors, counted by the project's own indexer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadCorpus, type Post } from "../../src/corpus/index.ts";
import { repoRoot } from "../helpers/run-cli.ts";

const corpus = await loadCorpus(path.join(repoRoot, "content/posts"));

/** Words a reader sees: headings and section text (code included), after the parser's cleanup. */
const wordCount = (post: Post) =>
  post.sections.reduce((n, s) => n + `${s.heading} ${s.text}`.split(/\s+/).filter(Boolean).length, 0);

test("the blog has at least 24 posts and 350 sections", () => {
  assert.ok(corpus.posts.length >= 24, `${corpus.posts.length} posts`);
  assert.ok(corpus.sections.length >= 350, `${corpus.sections.length} sections`);
});

// Per-post bounds are loose on purpose: real blogs mix short notes with long explainers, and the study depends on
// the corpus totals above (its blog had 446 sections), not on every post following one template. The bounds only
// catch a post that was truncated or pasted twice.
test("every post has 6 to 24 sections and 800 to 3,200 words", () => {
  const off = corpus.posts
    .map((post) => ({ slug: post.slug, sections: post.sections.length, words: wordCount(post) }))
    .filter((p) => p.sections < 6 || p.sections > 24 || p.words < 800 || p.words > 3200);
  assert.deepEqual(off, []);
});

test("every post's frontmatter has title, description, date and tags", () => {
  const missing = corpus.posts.flatMap((post) =>
    ["title", "description", "date", "tags"]
      .filter((field) => post.frontmatter[field] === undefined || post.frontmatter[field] === "")
      .map((field) => `${post.slug}: ${field}`),
  );
  assert.deepEqual(missing, []);
  for (const post of corpus.posts)
    assert.ok(
      Array.isArray(post.frontmatter.tags) && post.frontmatter.tags.length > 0,
      `${post.slug}: tags must be a non-empty list`,
    );
});

test("no slug is a substring of another (the strict scorer matches slugs as substrings)", () => {
  const slugs = corpus.posts.map((p) => p.slug);
  const clashes = slugs.flatMap((a) => slugs.filter((b) => a !== b && b.includes(a)).map((b) => `${a} is inside ${b}`));
  assert.deepEqual(clashes, []);
});

test("no post imports a component or shows one of the site's images: the blog has neither", () => {
  // An ESM import, a JSX component tag, or an image with a site path (markdown or src="/..."); an image with a full
  // URL inside inline code, as in the prompt-injection post, is an example, not a picture.
  const absent = corpus.posts.flatMap((post) =>
    [
      ...readFileSync(post.file, "utf8").matchAll(
        /^import\s.+\sfrom\s+['"][^'"]+['"]|<[A-Z][\w.]*|!\[[^\]]*\]\(\/[^)]*\)|src=["']\/[^"']*["']/gm,
      ),
    ].map((m) => `${post.slug}: ${m[0]}`),
  );
  assert.deepEqual(absent, []);
});
