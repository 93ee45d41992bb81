// Reads `<!-- -->` in an MDX post as an MDX comment, as Docusaurus does: real MDX blogs still write them.
import type { MdNode } from "./md-node.ts";
import { span } from "./md-node.ts";

export type CommentsRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly line: number; readonly message: string };

/**
 * MDX 2 and later refuse `<!--` (an MDX comment is an expression holding a JavaScript comment), yet Docusaurus
 * blogs keep `<!--truncate-->` and Docusaurus reads them (its `markdown.mdx1Compat.comments`, on by default). So
 * does blogqa: each HTML comment that plain markdown finds (never one inside code) becomes an MDX comment of the
 * same length, so every position the MDX parser reports is still the file's. `markdown` is the plain-markdown parse
 * of the same text.
 */
export function htmlCommentsAsMdx(text: string, markdown: MdNode): CommentsRead {
  const edits: { at: number; from: string; to: string }[] = [];
  let unclosed: number | undefined;
  const visit = (node: MdNode) => {
    if (node.type === "html") {
      const { start, end } = span(node);
      const html = text.slice(start, end);
      for (let at = html.indexOf("<!--"); at !== -1; at = html.indexOf("<!--", at + 4)) {
        const close = html.indexOf("-->", at + 4);
        if (close === -1) {
          unclosed ??= node.position?.start.line ?? 1;
          return;
        }
        edits.push({ at: start + at, from: "<!--", to: "{/* " }, { at: start + close, from: "-->", to: "*/}" });
        at = close;
      }
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(markdown);
  if (unclosed !== undefined) return { ok: false, line: unclosed, message: "comment is never closed (no -->)" };
  if (edits.length === 0) return { ok: true, text };
  let out = "";
  let cursor = 0;
  for (const edit of edits.sort((a, b) => a.at - b.at)) {
    out += text.slice(cursor, edit.at) + edit.to;
    cursor = edit.at + edit.from.length;
  }
  return { ok: true, text: out + text.slice(cursor) };
}
