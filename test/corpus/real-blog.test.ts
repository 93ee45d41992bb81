// Two posts of a real blog, Docusaurus's own (test/fixtures/docusaurus-blog/NOTICE.md), read as its authors keep them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { UserError } from "../../src/common/errors.ts";
import { loadCorpus, summarizeCorpus } from "../../src/corpus/index.ts";

const blog = path.resolve(import.meta.dirname, "../fixtures/docusaurus-blog/blog");

test("as kept, its series of page bundles is refused: the slug 3.1 is inside 3.10, and the error names both", async () => {
  const error = await loadCorpus(blog, { note: () => {} }).then(
    () => assert.fail("expected loadCorpus to throw"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof UserError);
  const [first, problem, ...rest] = error.message.split("\n");
  assert.equal(first, `${blog}: cannot read the blog: 1 problem`);
  assert.equal(
    problem,
    `${path.join(blog, "releases/3.1/index.mdx")}: slug "3.1" is inside slug "3.10" of ${path.join(blog, "releases/3.10/index.mdx")}, ` +
      "so a citation of either would name both; answers cite slugs: rename one file, or give one a frontmatter slug",
  );
  assert.deepEqual(rest, []);
});

test("with the frontmatter slug the error asks for, both posts are read: bundles, MDX heading ids, imports", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-docusaurus-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(blog, dir, { recursive: true });
  const file = path.join(dir, "releases/3.10/index.mdx");
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(
      "title: Docusaurus 3.10\n",
      "title: Docusaurus 3.10\nslug: /releases/three-ten\n",
    ),
  );
  const corpus = await loadCorpus(dir, { note: () => {} });
  assert.deepEqual(
    corpus.posts.map((p) => p.slug),
    ["3.1", "three-ten"],
  );
  const headings = (slug: string) => corpus.sections.filter((s) => s.post === slug).map((s) => [s.level, s.heading]);
  // `## Highlights` is followed directly by its `###` subsections: with no text of its own, it is not indexed.
  assert.deepEqual(corpus.posts[0]!.emptyHeadings, ["Highlights"]);
  assert.deepEqual(headings("3.1"), [
    [1, "Docusaurus 3.1"],
    [3, "Broken anchors checker"],
    [3, "parseFrontMatter hook"],
    [2, "Other changes"],
  ]);
  // `## Security {/* #security */}`: Docusaurus's heading id is an MDX comment, dropped from the heading.
  assert.deepEqual(headings("three-ten").slice(0, 5), [
    [1, "Docusaurus 3.10"],
    [2, "Changelog TODO temp"],
    [2, "Security"],
    [3, "Trusted Publishing"],
    [3, "Security Workflow"],
  ]);
  const all = corpus.sections.map((s) => s.text).join("\n");
  assert.doesNotMatch(all, /import IframeWindow|truncate/);
  // Docusaurus reads an mdx-code-block fence as MDX (its import is ESM) and its admonitions through remark-directive.
  assert.doesNotMatch(all, /import BrowserWindow|mdx-code-block|^:::/m);
  assert.match(all, /^Danger: Security Limitations$/m);
  assert.match(all, /^Tip: Secure your site\n\nRead the npm security best practices guide/m);
  const summary = summarizeCorpus(corpus, 300);
  assert.deepEqual(
    summary.posts.map((p) => [p.slug, p.file, p.intro, p.h1, p.h2, p.h3, p.longest.heading, p.longest.words]),
    [
      // Longer than the study splitter counted them: the code fence lines are kept now.
      ["3.1", "releases/3.1/index.mdx", 1, 0, 1, 2, "parseFrontMatter hook", 125],
      ["three-ten", "releases/3.10/index.mdx", 1, 0, 8, 2, "Other changes", 296],
    ],
  );
});
