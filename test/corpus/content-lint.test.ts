// Lints the real blog in content/posts/ against the corpus floors, counted by the project's own indexer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadCorpus, summarizeCorpus, type Post } from "../../src/corpus/index.ts";
import { READ_SECTION_MAX_WORDS } from "../../src/designs/index.ts";
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
// catch a post that was truncated or pasted twice; the second test keeps the mix a mix.
const sizes = corpus.posts.map((post) => ({ slug: post.slug, sections: post.sections.length, words: wordCount(post) }));

test("every post has 5 to 30 sections and 600 to 4,500 words", () => {
  const off = sizes.filter((p) => p.sections < 5 || p.sections > 30 || p.words < 600 || p.words > 4500);
  assert.deepEqual(off, []);
});

test("the blog is not one template: some posts are short notes (under 1,000 words), some long (over 3,500)", () => {
  const short = sizes.filter((p) => p.words < 1000).map((p) => p.slug);
  const long = sizes.filter((p) => p.words > 3500).map((p) => p.slug);
  assert.ok(short.length >= 2, `short notes: ${short.join(", ") || "none"}`);
  assert.ok(long.length >= 2, `long posts: ${long.join(", ") || "none"}`);
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

test("no section is longer than read_section returns, so an agent that reads a section sees all of it", () => {
  const over = summarizeCorpus(corpus, READ_SECTION_MAX_WORDS)
    .posts.filter((p) => p.overReadLimit > 0)
    .map((p) => `${p.slug}: ${p.overReadLimit} over ${READ_SECTION_MAX_WORDS} words (longest: ${p.longest.heading})`);
  assert.deepEqual(over, []);
});
