// An MDX body without any pre-MDX form's marker skips the plain-markdown parse: on every post we have, and on each
// form alone, the shortcut reads exactly what the full path reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { htmlCommentsAsMdx } from "../../src/corpus/html-comments.ts";
import { mayHoldPreMdxForms } from "../../src/corpus/mdast-parse.ts";
import type { MdNode } from "../../src/corpus/md-node.ts";
import { mdxParsers } from "../../src/corpus/mdx-toolchain.ts";
import { readSiteSyntax } from "../../src/corpus/site-syntax.ts";

const root = path.resolve(import.meta.dirname, "../..");

function postsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.mdx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/** What the plain-markdown pass does to an MDX body: its text after comments and site syntax, and the counts. */
function fullPass(body: string): { text: string; headingIds: number; mdxCodeBlocks: number } | "refused" {
  const plain = mdxParsers().markdown.parse(body) as unknown as MdNode;
  const comments = htmlCommentsAsMdx(body, plain);
  if (!comments.ok) return "refused";
  const site = readSiteSyntax(comments.text, plain, { mdx: true });
  return { text: site.text, ...site.counts };
}

test("every post and fixture without a marker: the plain pass would change nothing", () => {
  const files = [...postsUnder(path.join(root, "content/posts")), ...postsUnder(path.join(root, "test/fixtures"))];
  let skipped = 0;
  for (const file of files) {
    const body = readFileSync(file, "utf8");
    if (mayHoldPreMdxForms(body)) continue;
    skipped += 1;
    assert.deepEqual(fullPass(body), { text: body, headingIds: 0, mdxCodeBlocks: 0 }, file);
  }
  // Our own blog writes none of the forms: every one of its posts takes the shortcut.
  assert.ok(skipped >= readdirSync(path.join(root, "content/posts")).length, `${skipped} of ${files.length}`);
});

test("each form the plain pass reads is seen by the marker check", () => {
  const forms = [
    "## Install {#install}\n\nText.\n",
    "Text.\n\n<!-- truncate -->\n\nMore.\n",
    "Text.\n\n<!-- never closed\n",
    "```mdx-code-block\nimport Tabs from '@theme/Tabs';\n```\n",
    ":::tip Careful\n\nText.\n\n:::\n",
  ];
  for (const body of forms) {
    assert.notDeepEqual(fullPass(body), { text: body, headingIds: 0, mdxCodeBlocks: 0 }, body);
    assert.equal(mayHoldPreMdxForms(body), true, body);
  }
});
