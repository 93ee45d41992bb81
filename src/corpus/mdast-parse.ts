// Parses a post's body with the MDX toolchain's own parser (micromark and mdast, as MDX, Next.js, Astro and Docusaurus do).
import type { MdNode } from "./md-node.ts";
import { htmlCommentsAsMdx } from "./html-comments.ts";
import { mdxParsers } from "./mdx-toolchain.ts";
import { readSiteSyntax, type SiteSyntaxCounts, type SiteSyntaxRead } from "./site-syntax.ts";

/** Where and why the parser refused a body; `line` counts from the body's first line (1). */
export interface ParseRefusal {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

/** A parsed body: its tree and the text the tree's offsets point into. */
export interface ParsedBody {
  readonly tree: MdNode;
  readonly source: string;
  /** The Docusaurus forms read before parsing (see site-syntax.ts). */
  readonly siteSyntax: SiteSyntaxCounts;
}

const NO_SITE_SYNTAX: SiteSyntaxCounts = { headingIds: 0, mdxCodeBlocks: 0 };

/**
 * Whether an MDX body may hold a form read before the MDX parser (an HTML comment, a heading id, an
 * ```` ```mdx-code-block ```` fence, a Docusaurus 2 admonition title): each one's text holds one of these strings.
 * A body with none skips the plain-markdown parse that finds them, which would change nothing: half the parsing of
 * a blog that writes none of them.
 */
export function mayHoldPreMdxForms(body: string): boolean {
  return body.includes("<!--") || body.includes("{#") || body.includes("mdx-code-block") || body.includes(":::");
}

/**
 * The body's tree, or the parser's refusal with its position (MDX is strict: an unclosed tag, a `{` alone, an
 * `export` paragraph that is not JavaScript). HTML comments in MDX are read as MDX comments (see html-comments.ts).
 */
export function parseBody(body: string, options: { readonly mdx: boolean }): ParsedBody | ParseRefusal {
  const { mdx, markdown } = mdxParsers();
  let site: SiteSyntaxRead = { text: body, counts: NO_SITE_SYNTAX };
  if (!options.mdx || mayHoldPreMdxForms(body)) {
    const plain = markdown.parse(body) as unknown as MdNode;
    const comments = htmlCommentsAsMdx(body, plain);
    if (!comments.ok) return { line: comments.line, column: 1, reason: comments.message };
    // A `.md` post keeps its HTML comments: plain markdown reads them as HTML.
    site = readSiteSyntax(options.mdx ? comments.text : body, plain, options);
    if (!options.mdx) {
      const tree = site.text === body ? plain : (markdown.parse(site.text) as unknown as MdNode);
      return { tree, source: site.text, siteSyntax: site.counts };
    }
  }
  try {
    return { tree: mdx.parse(site.text) as unknown as MdNode, source: site.text, siteSyntax: site.counts };
  } catch (error) {
    // A stack overflow is the post's nesting, not its syntax: post-budget.ts says so in its own words.
    if (error instanceof RangeError) throw error;
    const e = error as { line?: unknown; column?: unknown; reason?: unknown; message?: unknown };
    const reason = `MDX parser: ${typeof e.reason === "string" ? e.reason : String(e.message ?? error)}`;
    return {
      line: typeof e.line === "number" ? e.line : 1,
      column: typeof e.column === "number" ? e.column : 1,
      reason,
    };
  }
}

export const isRefusal = (parsed: ParsedBody | ParseRefusal): parsed is ParseRefusal => "reason" in parsed;
