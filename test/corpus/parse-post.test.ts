// The MDX parser on a fixture post that uses every construct, and its heading rules on their own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Post } from "../../src/corpus/index.ts";
import { cleanHeading } from "../../src/corpus/clean-heading.ts";
import { disambiguateHeadings } from "../../src/corpus/sections.ts";
import { parsePost } from "../../src/corpus/parse-post.ts";

const fixture = path.resolve(import.meta.dirname, "../fixtures/blog/posts/kitchen-sink.mdx");

function kitchenSink(): Post {
  const parsed = parsePost(fixture, readFileSync(fixture));
  assert.ok(parsed.kind === "post", JSON.stringify(parsed));
  return parsed.post;
}

const text = (post: Post, heading: string) => {
  const section = post.sections.find((s) => s.heading === heading);
  assert.ok(section, `no section "${heading}" in ${post.sections.map((s) => s.heading).join(" | ")}`);
  return section.text;
};

test("a post splits at h2 and h3, with the text before the first heading headed by the title", () => {
  const post = kitchenSink();
  assert.equal(post.slug, "kitchen-sink");
  assert.equal(post.title, "The Kitchen Sink: Every MDX Construct");
  assert.deepEqual(post.frontmatter.tags, ["fixture", "mdx"]);
  assert.deepEqual(
    post.sections.map((s) => [s.level, s.heading]),
    [
      [1, "The Kitchen Sink: Every MDX Construct"],
      [2, "Code with # comments"],
      [2, "Tables and math"],
      [3, "A repeated heading"],
      [3, "A repeated heading (2)"],
      [2, "Links in headings and underscores and __init__"],
      [2, "Trailing hashes"],
    ],
  );
  assert.ok(post.sections.every((s) => s.post === "kitchen-sink"));
});

test("import and export lines and HTML comments are dropped; markdown in prose stays, a link as its text", () => {
  const intro = text(kitchenSink(), "The Kitchen Sink: Every MDX Construct");
  assert.equal(intro, "Intro paragraph with a link to softmax and **bold** text.");
});

test("fenced code stays as text and its # lines never start a section", () => {
  const code = text(kitchenSink(), "Code with # comments");
  assert.match(code, /^# This is a comment, not a heading$/m);
  assert.match(code, /^## Neither is this$/m);
  assert.match(code, /x = 1 {2}# trailing/);
  // The fences stay, with their language, so a reader of a hit sees where code starts and ends.
  assert.match(
    code,
    /headings\.\n\n```python\n# This is a comment, not a heading\n[\s\S]*# trailing\n```\n\nA caption/,
  );
  assert.match(
    text(kitchenSink(), "Links in headings and underscores and __init__"),
    /~~~\ntilde fence\n## not a heading\n~~~/,
  );
});

test("JSX tags go, with and without children; their text children and prose attributes stay", () => {
  const post = kitchenSink();
  const all = post.sections.map((s) => s.text).join("\n");
  assert.doesNotMatch(all, /<\/?(Figure|Callout|Note|strong|Tabs)\b/);
  assert.doesNotMatch(all, /caption=|\/img\/x\.png/);
  assert.match(all, /^A caption > with a bracket$/m);
  assert.match(text(post, "A repeated heading"), /First body\.\n\nText inside a callout survives\./);
  const links = text(post, "Links in headings and underscores and __init__");
  assert.match(links, /^Inline nested children$/m);
  assert.match(links, /^Tab content stays\.$/m);
  assert.doesNotMatch(all, /heading inside a comment|an MDX comment/);
});

test("tables and math are kept verbatim, a < inside math is not a tag", () => {
  const math = text(kitchenSink(), "Tables and math");
  assert.match(math, /\| column a \| column b \|\n\| --- \| --- \|\n\| 1 \| 2 \|/);
  assert.match(math, /Inline math \$a < b\$ and block math:/);
  assert.match(math, /\$\$\n\\sum_\{i\} e\^\{x_i\}\n\$\$/);
});

test("cleanHeading strips emphasis, links, images, code spans, tags and ids, keeping the words", () => {
  assert.equal(cleanHeading("Using `softmax` with **care**"), "Using softmax with care");
  assert.equal(cleanHeading("[Links](/posts/x) and ![images](a.png)"), "Links and images");
  assert.equal(cleanHeading("*one* _two_ __three__ ~~four~~"), "one two three four");
  assert.equal(cleanHeading("snake_case_name and `__init__`"), "snake_case_name and __init__");
  assert.equal(cleanHeading("Custom id {#my-id}"), "Custom id");
  assert.equal(cleanHeading("Badge <Badge text='new' /> here"), "Badge here");
  assert.equal(cleanHeading("k1 < b and 2 * 3 * 4"), "k1 < b and 2 * 3 * 4");
});

test("repeated headings are disambiguated stably, never renaming a heading as written", () => {
  assert.deepEqual(disambiguateHeadings(["A", "B", "A", "A"]), ["A", "B", "A (2)", "A (3)"]);
  assert.deepEqual(disambiguateHeadings(["Example", "Example", "Example (2)"]), [
    "Example",
    "Example (3)",
    "Example (2)",
  ]);
  assert.deepEqual(disambiguateHeadings(["X", "X"]), disambiguateHeadings(["X", "X"]));
});

test("a heading that repeats the title becomes 'Title (2)'; a post starting with a heading has no level-1 section", () => {
  const src = "---\ntitle: Same\n---\n\n## Same\n\nBody.\n";
  const parsed = parsePost("p/same.mdx", Buffer.from(src));
  assert.ok(parsed.kind === "post");
  assert.deepEqual(
    parsed.post.sections.map((s) => s.heading),
    ["Same"],
  );
  const withIntro = parsePost("p/same.mdx", Buffer.from("---\ntitle: Same\n---\nIntro.\n\n## Same\n\nBody.\n"));
  assert.ok(withIntro.kind === "post");
  assert.deepEqual(
    withIntro.post.sections.map((s) => s.heading),
    ["Same", "Same (2)"],
  );
});

test("CRLF line ends and a byte-order mark parse like LF", () => {
  const lf = "---\ntitle: T\n---\nIntro.\n\n## H\n\nBody.\n";
  const crlf = `\uFEFF${lf.replace(/\n/g, "\r\n")}`;
  const a = parsePost("x/t.mdx", Buffer.from(lf));
  const b = parsePost("x/t.mdx", Buffer.from(crlf));
  assert.ok(a.kind === "post" && b.kind === "post");
  assert.deepEqual(b.post.sections, a.post.sections);
});
