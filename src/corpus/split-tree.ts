// Splits a post's tree at its headings into blocks of section text, folding deeper headings into their parent.
import type { MdNode } from "./md-node.ts";
import { dedented, span } from "./md-node.ts";
import { nodeText, type TextContext } from "./node-text.ts";
import { attributeProse } from "./attribute-prose.ts";
import { cleanHeading } from "./clean-heading.ts";

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** The text under one heading. `heading` is undefined for the text before the first heading. */
export interface Block {
  /** The heading as rendered (markup still in it: see clean-heading.ts), before cleaning. */
  readonly heading: string | undefined;
  /** 1 for `#` (and for the text before the first heading), 2 for `##`, and so on. */
  readonly level: HeadingLevel;
  /** 1-based line of the heading in the parsed text (of its start for the first block). */
  readonly line: number;
  readonly text: string;
  /** Headings deeper than the split, kept as lines of this block's text, cleaned. */
  readonly folded: readonly string[];
}

export interface Split {
  readonly blocks: readonly Block[];
  readonly problems: readonly { readonly line: number; readonly message: string }[];
}

interface Item {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Blank lines between two items stay as written; markup between them (a JSX tag, ESM) becomes a paragraph break. */
function joinItems(items: readonly Item[], source: string): string {
  let out = "";
  items.forEach((item, i) => {
    if (i > 0) {
      const gap = source.slice(items[i - 1]!.end, item.start);
      // The next item's indentation (inside `<TabItem>`) is the source's layout, not the text's.
      if (/^\s*$/.test(gap)) out += gap.includes("\n") ? gap.replace(/[ \t]+$/, "") : gap;
      else out += gap.includes("\n") ? "\n\n" : " ";
    }
    out += item.text;
  });
  return out
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const FENCE = /^[ \t]*(`{3,}|~{3,})/;

/** A fenced code block the parser ran to the end of the post because nothing closed it. */
function unclosedFence(node: MdNode, source: string): string | undefined {
  const { start, end } = span(node);
  const text = source.slice(start, end);
  const open = FENCE.exec(text)?.[1];
  if (open === undefined) return undefined;
  const lines = text.split("\n");
  const last = lines[lines.length - 1]!.trim();
  const closed = lines.length > 1 && last.length >= open.length && last === open[0]!.repeat(last.length);
  return closed ? undefined : open;
}

/**
 * Walks the tree's top level (and into JSX elements there, whose children are the post's flow too, as `<Tabs>`
 * holding `## ` headings shows): a heading of depth `splitDepth` or less starts a block; a deeper one is a line of
 * the current block, and is listed in its `folded`.
 */
export function splitTree(root: MdNode, context: TextContext, splitDepth: number): Split {
  const blocks: { heading: string | undefined; level: HeadingLevel; line: number; items: Item[]; folded: string[] }[] =
    [{ heading: undefined, level: 1, line: 1, items: [], folded: [] }];
  const problems: { line: number; message: string }[] = [];
  const current = () => blocks[blocks.length - 1]!;
  // Inside JSX, a child's source indentation is layout: its text starts at the margin.
  const add = (node: MdNode, text: string, inJsx: boolean) => {
    if (text !== "") current().items.push({ ...span(node), text: inJsx ? dedented(node, text) : text });
  };

  const visit = (node: MdNode, inJsx: boolean) => {
    const line = node.position?.start.line ?? 1;
    if (node.type === "mdxJsxFlowElement") {
      // An element's own words (a tab's label) end where it starts, so they stand on their own line, apart from
      // the first child (a fence): the opening tag between them becomes a paragraph break.
      const words = attributeProse(node, context.prose, context.stats).join(" ");
      const { start } = span(node);
      if (words !== "") current().items.push({ start, end: start, text: words });
      for (const child of node.children ?? []) visit(child, true);
      return;
    }
    if (node.type === "heading") {
      const children = node.children ?? [];
      const raw = children.map((child) => nodeText(child, context)).join("");
      if (raw.trim() === "") {
        const written = context.source.slice(span(children[0] ?? node).start, span(children.at(-1) ?? node).end);
        const message =
          children.length === 0 ? "heading has no text" : `heading "${written}" has no text once markup is removed`;
        problems.push({ line, message });
        return;
      }
      const depth = (node.depth ?? 1) as HeadingLevel;
      if (depth <= splitDepth) {
        blocks.push({ heading: raw, level: depth, line, items: [], folded: [] });
        return;
      }
      const text = cleanHeading(raw);
      current().folded.push(text);
      add(node, text, inJsx);
      return;
    }
    if (node.type === "code") {
      const marker = unclosedFence(node, context.source);
      if (marker !== undefined) problems.push({ line, message: `code fence ${marker} is never closed` });
    }
    if (node.type === "html" && /<!--(?![\s\S]*-->)/.test(node.value ?? ""))
      problems.push({ line, message: "comment is never closed (no -->)" });
    add(node, nodeText(node, context), inJsx);
  };
  for (const node of root.children ?? []) visit(node, false);

  return {
    blocks: blocks.map((b) => ({
      heading: b.heading,
      level: b.level,
      line: b.line,
      text: joinItems(b.items, context.source),
      folded: b.folded,
    })),
    problems,
  };
}
