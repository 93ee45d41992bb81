// Rewrites Docusaurus's own syntax into what the MDX parser reads, as Docusaurus's preprocessor does before parsing.
import type { MdNode } from "./md-node.ts";
import { span } from "./md-node.ts";

/** How many of each Docusaurus form a body held (the parse reads them; `sections --summary` counts them). */
export interface SiteSyntaxCounts {
  /** `### Title {#my-id}`: the id leaves the heading's text. */
  readonly headingIds: number;
  /** ```` ```mdx-code-block ```` fences, whose content is read as MDX. */
  readonly mdxCodeBlocks: number;
}

export interface SiteSyntaxRead {
  readonly text: string;
  readonly counts: SiteSyntaxCounts;
}

/** Docusaurus's heading id: `{#id}` at the end of a heading's text line (closing `#`s may follow). */
const HEADING_ID = /\{#[\w-]+\}(?=[ \t]*(?:#+[ \t]*)?$)/;

/** Docusaurus 2's admonition title, written after the kind: `:::tip Title` is `:::tip[Title]` in Docusaurus 3. */
const LEGACY_TITLE = /^(:{3,}[A-Za-z][\w-]*)([ \t]+)(?![[{])(\S[^\n]*)$/;

interface Edit {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

/**
 * Docusaurus reads three forms before its MDX parser sees the text, and so does blogqa (`markdown` is the
 * plain-markdown parse of `text`, so nothing inside code is touched):
 * - a heading id `{#my-id}` is escaped to `\{#my-id\}` in MDX, where it would be a JavaScript expression (acorn
 *   refuses it), and cleanHeading drops it from the heading's name; in `.md` it is text already;
 * - an ```` ```mdx-code-block ```` fence (MDX only) loses its fence lines, which become blank, so its content is
 *   read as MDX (Docusaurus wraps imports and `<Tabs>` in them);
 * - `:::tip Title` becomes `:::tip[Title]`, the directive label Docusaurus 3 reads as the title.
 * Only the edited lines' columns move (an id's own characters, a legacy title's closing bracket): every line number,
 * and every offset before the edit, stays the file's.
 */
export function readSiteSyntax(text: string, markdown: MdNode, options: { readonly mdx: boolean }): SiteSyntaxRead {
  const edits: Edit[] = [];
  let headingIds = 0;
  let mdxCodeBlocks = 0;
  const lineOf = (start: number) => {
    const end = text.indexOf("\n", start);
    return text.slice(start, end === -1 ? text.length : end);
  };
  const visit = (node: MdNode) => {
    const { start, end } = span(node);
    if (node.type === "heading") {
      const line = lineOf(start);
      const id = HEADING_ID.exec(line);
      if (id !== null) {
        headingIds += 1;
        if (options.mdx) {
          edits.push({ at: start + id.index, remove: 0, insert: "\\" });
          edits.push({ at: start + id.index + id[0].length - 1, remove: 0, insert: "\\" });
        }
      }
    }
    if (node.type === "code" && options.mdx && /^mdx-code-block$/.test((node as { lang?: string }).lang ?? "")) {
      mdxCodeBlocks += 1;
      const opener = lineOf(start);
      edits.push({ at: start, remove: opener.length, insert: " ".repeat(opener.length) });
      const lastStart = text.lastIndexOf("\n", end - 1) + 1;
      const closer = text.slice(lastStart, end);
      if (lastStart > start && /^[ \t]*(`{3,}|~{3,})[ \t]*$/.test(closer))
        edits.push({ at: lastStart, remove: closer.length, insert: " ".repeat(closer.length) });
      return;
    }
    if (node.type === "paragraph") {
      const legacy = LEGACY_TITLE.exec(lineOf(start));
      if (legacy !== null) {
        const open = start + legacy[1]!.length;
        edits.push({ at: open, remove: 1, insert: "[" });
        edits.push({ at: open + legacy[2]!.length + legacy[3]!.length, remove: 0, insert: "]" });
      }
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(markdown);
  let out = "";
  let cursor = 0;
  for (const edit of edits.sort((a, b) => a.at - b.at)) {
    out += text.slice(cursor, edit.at) + edit.insert;
    cursor = edit.at + edit.remove;
  }
  return { text: out + text.slice(cursor), counts: { headingIds, mdxCodeBlocks } };
}
