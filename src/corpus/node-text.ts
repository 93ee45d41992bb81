// Turns mdast nodes into a section's text: markdown as written, minus what is markup (JSX tags, ESM, expressions, URLs).
import type { MdNode } from "./md-node.ts";
import { dedented, span } from "./md-node.ts";
import { attributeProse } from "./attribute-prose.ts";
import { stripTagsKeepingProse } from "./jsx-tags.ts";
import { cleanHeading } from "./clean-heading.ts";
import { drop, type ReadStats, sawSyntax } from "./read-stats.ts";

/** What rendering needs: the parsed text, the prose attributes, and where to count what was kept and dropped. */
export interface TextContext {
  readonly source: string;
  readonly prose: ReadonlySet<string>;
  readonly stats: ReadStats;
  /** The study splitter's text instead: links, images and definitions as written, code without its fence lines. */
  readonly studyText?: boolean;
}

/** A fenced block's lines between its fences, as the study's splitter kept code; an indented block as written. */
function withoutFences(code: string): string {
  const lines = code.split("\n");
  if (!/^[ \t]*(`{3,}|~{3,})/.test(lines[0] ?? "")) return code;
  const last = lines.length > 1 && /^[ \t]*(`{3,}|~{3,})[ \t]*$/.test(lines.at(-1)!) ? -1 : lines.length;
  return lines.slice(1, last).join("\n");
}

/** Markup the study's splitter kept as written; the default reads it as its text. */
const STUDY_VERBATIM = new Set(["link", "linkReference", "image", "imageReference", "definition"]);

const COMMENT = /^\s*\/\*[\s\S]*\*\/\s*$/;
// Docusaurus's end of a post's excerpt: an MDX comment holding only `truncate` (or an HTML one, read as one).
const TRUNCATE = /^\s*\/\*\s*truncate\s*\*\/\s*$/;

/**
 * Admonition kinds whose word says something about the text (a warning is not a tip); a note or an info box's kind
 * is its styling. Docusaurus shows the kind as the title when none is given.
 */
const TELLING_KINDS = new Set(["tip", "warning", "caution", "danger", "important"]);

/** `:::warning[Breaking change]` -> `Warning: Breaking change`; `:::note[Why]` -> `Why`; `:::note` -> nothing. */
function admonitionTitle(kind: string, title: string): string {
  const word = TELLING_KINDS.has(kind.toLowerCase()) ? `${kind[0]!.toUpperCase()}${kind.slice(1).toLowerCase()}:` : "";
  return [word, title].filter((t) => t !== "").join(" ");
}

/** Block children apart, each at the margin, blank ones left out. */
const blocks = (nodes: readonly MdNode[], context: TextContext): string[] =>
  nodes.map((child) => dedented(child, nodeText(child, context))).filter((t) => t.trim() !== "");

/** The node's text in the source, each child replaced by its own rendering (markers, indents, spacing as written). */
function spliced(node: MdNode, context: TextContext): string {
  const { start, end } = span(node);
  let out = "";
  let cursor = start;
  for (const child of node.children ?? []) {
    const at = span(child);
    out += context.source.slice(cursor, at.start) + nodeText(child, context);
    cursor = at.end;
  }
  return out + context.source.slice(cursor, end);
}

/** Phrasing children side by side, as they stand between an element's tags. */
const inline = (nodes: readonly MdNode[], context: TextContext): string =>
  nodes.map((node) => nodeText(node, context)).join("");

/** Words kept from attributes sit apart from the text around them: `a<X alt="b"/>c` reads `a b c`. */
function spaced(node: MdNode, words: string, context: TextContext): string {
  if (words === "") return "";
  const { start, end } = span(node);
  const before = start > 0 && /\S/.test(context.source[start - 1]!) ? " " : "";
  const after = end < context.source.length && /\S/.test(context.source[end]!) ? " " : "";
  return `${before}${words}${after}`;
}

/**
 * One node as section text. Markdown stays as written (emphasis, tables, math, lists); code blocks keep their fences
 * and language, so a reader of a hit sees where code starts and ends. JSX gives its prose attributes and its
 * children's text; ESM, `{expressions}` and comments give nothing. A link gives its text, an image its alt: URLs
 * spend a 60-word snippet on characters no question asks about.
 */
export function nodeText(node: MdNode, context: TextContext): string {
  if (context.studyText && STUDY_VERBATIM.has(node.type)) return spliced(node, context);
  if (context.studyText && node.type === "code")
    return withoutFences(context.source.slice(span(node).start, span(node).end));
  switch (node.type) {
    case "yaml":
    case "toml":
      return "";
    case "mdxjsEsm":
      drop(context.stats, "import/export");
      return "";
    case "mdxFlowExpression":
    case "mdxTextExpression":
      if (TRUNCATE.test(node.value ?? "")) sawSyntax(context.stats, "truncate marker");
      drop(context.stats, COMMENT.test(node.value ?? "") ? "comment" : "{expression}");
      // An expression alone on its line leaves the line: `## Security {/* #security */}` is `Security`.
      return "";
    case "mdxJsxTextElement": {
      const words = attributeProse(node, context.prose, context.stats).join(" ");
      const children = inline(node.children ?? [], context);
      if (words === "") return children;
      return children === "" ? spaced(node, words, context) : `${spaced(node, words, context).trimEnd()} ${children}`;
    }
    case "mdxJsxFlowElement": {
      const words = attributeProse(node, context.prose, context.stats).join(" ");
      return [words, ...blocks(node.children ?? [], context)].filter((t) => t !== "").join("\n\n");
    }
    case "containerDirective": {
      // An admonition: its title (and telling kind) on a line of its own, then its body; the `:::` lines go.
      sawSyntax(context.stats, "admonition");
      const [first, ...rest] = node.children ?? [];
      const labelled = first?.data?.directiveLabel === true;
      const title = labelled ? cleanHeading(inline(first.children ?? [], context)) : "";
      const body = blocks(labelled ? rest : (node.children ?? []), context);
      const heading = admonitionTitle(node.name ?? "", title);
      // A kind alone leads the body's first line ("Warning: Never ..."); a title stands on its own line.
      if (title === "" && heading !== "" && body.length > 0) body[0] = `${heading} ${body[0]}`;
      else body.unshift(heading);
      return body.filter((t) => t !== "").join("\n\n");
    }
    case "leafDirective":
    case "textDirective":
      // `ratio a:b` or `::name` that no site renders: the text as written, as Docusaurus puts it back.
      sawSyntax(context.stats, "directive as text");
      return context.source.slice(span(node).start, span(node).end);
    case "link":
      if (node.url !== undefined && node.url !== inline(node.children ?? [], context)) drop(context.stats, "link URL");
      return inline(node.children ?? [], context);
    case "linkReference":
      return inline(node.children ?? [], context);
    case "image":
      drop(context.stats, "image URL");
      return node.alt ?? "";
    case "imageReference":
      return node.alt ?? "";
    case "definition":
      drop(context.stats, "link definition");
      return "";
    case "html":
      return htmlText(node.value ?? "", context);
    case "heading":
      // A heading that does not start a section (deeper than the split, or inside a quote or list) is a line of text.
      return cleanHeading(inline(node.children ?? [], context));
    case "code":
    case "math":
    case "inlineCode":
    case "inlineMath":
    case "text":
      return context.source.slice(span(node).start, span(node).end);
    default:
      return node.children === undefined
        ? context.source.slice(span(node).start, span(node).end)
        : spliced(node, context);
  }
}

/** Raw HTML, which only a `.md` post has: comments go, tags go, their text and prose attributes stay. */
function htmlText(html: string, context: TextContext): string {
  const withoutComments = html.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => {
    drop(context.stats, "comment");
    if (/^<!--\s*truncate\s*-->/.test(comment)) sawSyntax(context.stats, "truncate marker");
    return comment.endsWith("\n") ? "\n" : "";
  });
  const { text, kept } = stripTagsKeepingProse(withoutComments, [...context.prose]);
  context.stats.kept.push(...kept);
  return text;
}
