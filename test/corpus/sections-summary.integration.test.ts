// `sections --summary`: per post its slug, file, sections at each level and longest section; what was left out and why.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatCorpusSummary, loadCorpus, summarizeCorpus } from "../../src/corpus/index.ts";
import { corpusFromFiles } from "../../src/corpus/load-corpus.ts";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";

const blog = path.resolve(import.meta.dirname, "../fixtures/layouts/blog");

test("each post's sections are counted by where they come from: intro, #, ## and ###", async () => {
  const summary = summarizeCorpus(await loadCorpus(blog, { note: () => {} }), 300);
  assert.deepEqual(
    summary.posts.map((p) => [
      p.slug,
      p.file,
      p.intro,
      p.h1,
      p.h2,
      p.h3,
      p.longest.heading,
      p.longest.words,
      p.overReadLimit,
    ]),
    [
      ["rust-ownership", "2024/rust-ownership/index.mdx", 1, 0, 2, 0, "Borrows", 23, 0],
      ["1-git-intro", "git-guide-series/1-git-intro.mdx", 1, 2, 2, 0, "The object store", 51, 0],
      ["2-git-branches", "git-guide-series/2-git-branches.mdx", 1, 2, 1, 1, "Merging", 22, 0],
      ["hugo-style-notes", "hugo-style-notes.md", 1, 0, 2, 0, "Notes Kept in Plain Markdown", 14, 0],
      ["renamed-post", "old-name.mdx", 1, 0, 1, 0, "Why a slug field", 18, 0],
    ],
  );
  assert.equal(summary.leftOut.length, 3);
});

test("a section longer than read_section's limit is starred and counted below the table", () => {
  const long = Array.from({ length: 350 }, (_, i) => `w${i}`).join(" ");
  const files = [
    {
      name: "chapters.mdx",
      bytes: Buffer.from(`---\ntitle: Chapters\n---\n\n# One\n\n${long}\n\n# Two\n\n${long} more\n`),
    },
    { name: "short.mdx", bytes: Buffer.from("---\ntitle: Short\n---\n\nJust this.\n") },
  ];
  const text = formatCorpusSummary(summarizeCorpus(corpusFromFiles("blog", files), 300));
  assert.equal(
    text,
    [
      "blog: 2 posts, 3 sections (intro 1, # 2, ## 0, ### 0), 0 files left out",
      "",
      "slug      file          intro  #  ##  ###  longest section",
      "chapters  chapters.mdx      0  2   0    0  351 words: Two *",
      "short     short.mdx         1  0   0    0  2 words: Short",
      "",
      "* 2 sections in 1 post are longer than the 300 words read_section returns (the rest of such a section is never " +
        "shown to the model)",
      "",
    ].join("\n"),
  );
});

test("sections --summary prints the table and what was left out, and no note on stderr", async () => {
  const result = await runCliInProcess(["sections", "--content", blog, "--summary"]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, "");
  const lines = result.stdout.split("\n");
  assert.equal(lines[0], `${blog}: 5 posts, 18 sections (intro 5, # 4, ## 8, ### 1), 3 files left out`);
  assert.match(lines[2]!, /^slug +file +intro +# +## +### +longest section$/);
  assert.match(lines[4]!, /^1-git-intro +git-guide-series\/1-git-intro\.mdx +1 +2 +2 +0 +51 words: The object store$/);
  assert.deepEqual(lines.slice(-5), [
    "left out:",
    "  README.md: a README, not a post",
    "  _index.md: a name starting with _ marks a partial or a list page",
    "  wip-post.mdx: draft: true",
    "",
  ]);
  // Without --summary the same folder prints its sections, and the note goes to stderr.
  const plain = await runCliInProcess(["sections", "--content", blog]);
  assert.equal(plain.status, 0, plain.stderr);
  assert.equal(plain.stdout.trimEnd().split("\n").length, 18);
  assert.match(
    plain.stderr,
    /^note: .*left out 3 files: README\.md \(a README, not a post\), .*wip-post\.mdx \(draft: true\)\n$/,
  );
});

test("a blog with a slug inside another stops sections, index and questions check with exit 1, naming both files", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-clash-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, "series"));
  writeFileSync(path.join(dir, "cache.mdx"), "---\ntitle: Cache\n---\n\nIntro.\n");
  writeFileSync(path.join(dir, "series", "kv-cache.md"), "---\ntitle: KV cache\n---\n\nIntro.\n");
  const expected =
    `blogqa: ${dir}: cannot read the blog: 1 problem\n${path.join(dir, "cache.mdx")}: slug "cache" is inside slug ` +
    `"kv-cache" of ${path.join(dir, "series", "kv-cache.md")}, so a citation of either would name both; answers cite ` +
    "slugs: rename one file, or give one a frontmatter slug\n";
  const commands = [["sections"], ["sections", "--summary"], ["index", "--retriever", "bm25"], ["questions", "check"]];
  for (const args of commands) {
    const result = await runCliInProcess([...args, "--content", dir]);
    assert.equal(result.status, 1, args.join(" "));
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, expected, args.join(" "));
  }
});
