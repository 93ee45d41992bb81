// Component-heavy MDX read by the MDX toolchain's parser: no tag text in a section, attribute prose kept, folds.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { UserError } from "../../src/common/errors.ts";
import { formatCorpusSummary, loadCorpus, summarizeCorpus } from "../../src/corpus/index.ts";

const dir = path.resolve(import.meta.dirname, "../fixtures/mdx-shapes");

test("JSX nested in attributes leaves no tag text; alts in object literals and nested children are kept", async () => {
  const corpus = await loadCorpus(dir, { note: () => {} });
  const text = (heading: string) => corpus.sections.find((s) => s.heading === heading)?.text;
  assert.equal(text("S1"), "A diagram of 3 stages Light diagram\n\nAfter.");
  assert.equal(text("S2"), "Text with inner in it, and an inline picture too.\n\nCaption kept");
  const all = corpus.sections.map((s) => s.text).join("\n");
  assert.doesNotMatch(all, /[<>{}]|=\{/);
  assert.deepEqual(corpus.posts[0]!.attributeProse, [
    { tag: "BlogImage", attribute: "imgProps.alt" },
    { tag: "BlogImage", attribute: "imgProps.alt" },
    { tag: "a", attribute: "(children)" },
    { tag: "img", attribute: "alt" },
    { tag: "Figure", attribute: "caption" },
  ]);
});

test("#### is folded into its parent as a line and named; fences and link text kept; NOTICE.md left out", async () => {
  const notes: string[] = [];
  const corpus = await loadCorpus(dir, { note: (line) => notes.push(line) });
  const details = corpus.sections.find((s) => s.heading === "Details")!;
  assert.equal(details.text, "Body with a link and `code`.\n\nA deep point\n\nDeep text.\n\n```ts\nconst x = 1;\n```");
  assert.deepEqual(corpus.posts[0]!.foldedHeadings, [{ heading: "A deep point", section: "Details" }]);
  assert.deepEqual(corpus.leftOut, [
    { file: "NOTICE.md", reason: "no frontmatter title: a project file, not a post" },
    { file: "README.md", reason: "a README, not a post" },
  ]);
  assert.equal(notes.length, 1);
  const deeper = await loadCorpus(dir, { note: () => {}, splitDepth: 4 });
  assert.deepEqual(
    deeper.sections.filter((s) => s.level === 4).map((s) => [s.heading, s.text]),
    [["A deep point", "Deep text.\n\n```ts\nconst x = 1;\n```"]],
  );
  assert.notEqual(deeper.hash, corpus.hash);
});

test("the summary says what was kept, folded and dropped, by kind, with counts", async () => {
  const corpus = await loadCorpus(dir, { note: () => {} });
  const summary = formatCorpusSummary(summarizeCorpus(corpus, 300));
  assert.match(
    summary,
    /^attribute prose kept as text: <BlogImage imgProps\.alt> 2, <a \(children\)> 1, <img alt> 1, <Figure caption> 1$/m,
  );
  assert.match(summary, /^folded into their section \(deeper than the split\): 1 heading$/m);
  assert.match(summary, /^ {2}components: A deep point \(in Details\)$/m);
  assert.match(summary, /^dropped as markup: import\/export 1, JSX attribute 4, link URL 1$/m);
});

test("a post the parser refuses is one line naming file, line and column, and the parser's reason", async () => {
  const rejected = path.resolve(import.meta.dirname, "../fixtures/mdx-shapes-rejected");
  const error = await loadCorpus(rejected, { note: () => {} }).then(
    () => assert.fail("expected loadCorpus to throw"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof UserError);
  const lines = error.message.split("\n");
  assert.equal(lines.length, 2);
  assert.match(
    lines[1]!,
    /broken\.mdx:7:\d+: MDX parser: Unexpected end of file in expression, expected a corresponding closing brace for `\{`$/,
  );
});
