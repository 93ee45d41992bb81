// Markdown reduced to the words a reader sees: `_x_`, `**x**`, `` `x` `` and links give their text.
import type { MdNode } from "./md-node.ts";
import { mdxParsers } from "./mdx-toolchain.ts";

/** Block-level nodes: their texts are separated, so words of two paragraphs never run together. */
const BLOCKS = new Set(["paragraph", "heading", "listItem", "tableCell", "code", "blockquote", "html"]);

function walk(node: MdNode, out: string[]): void {
  if (node.type === "image" || node.type === "imageReference") out.push(node.alt ?? "");
  else if (typeof node.value === "string") out.push(node.value);
  else if (node.type === "break") out.push(" ");
  for (const child of node.children ?? []) walk(child, out);
  if (BLOCKS.has(node.type)) out.push("\n");
}

// One line that no markdown construct can start or end: a letter first, no space last, and none of the characters
// inline syntax, entities, escapes, HTML, tables or list and heading markers need. Its parse is one paragraph of one
// text node, itself; fact phrasings are mostly such, and a question file may hold thousands of them.
const PLAIN_LINE = /^\p{L}[\p{L}\p{N} .,;:?'"()%/-]*(?<! )$/u;

/**
 * The plain text of a markdown string, as CommonMark with GFM reads it: "_more_ work" -> "more work",
 * "[the cache](/posts/kv)" -> "the cache", "`k` and **v**" -> "k and v". Raw HTML is kept as written.
 */
export function markdownPlainText(markdown: string): string {
  if (PLAIN_LINE.test(markdown)) return `${markdown}\n`;
  const out: string[] = [];
  walk(mdxParsers().gfm.parse(markdown) as unknown as MdNode, out);
  return out.join("");
}
