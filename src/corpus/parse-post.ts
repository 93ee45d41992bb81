// Parses one .mdx or .md file's bytes into a Post with the MDX toolchain's parser, says why it is left out (a draft), or lists every problem in it.
import type { InputProblem, Post } from "./types.ts";
import { decodeUtf8 } from "./decode-utf8.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import { buildSections } from "./sections.ts";
import { isRefusal, parseBody } from "./mdast-parse.ts";
import { splitTree } from "./split-tree.ts";
import { PROSE_ATTRIBUTES } from "./attribute-prose.ts";
import { newReadStats, sawSyntax } from "./read-stats.ts";
import { type SlugRule, slugFromPath } from "./site-layout.ts";

export type ParsedPost =
  | { readonly kind: "post"; readonly post: Post }
  | { readonly kind: "left-out"; readonly reason: string }
  | { readonly kind: "problems"; readonly problems: readonly InputProblem[] };

/**
 * A frontmatter `slug` as a post's citable name: surrounding slashes dropped and, for a path such as
 * `/blog/2021/my-post` (as Docusaurus allows), its last part. A string naming nothing, or a value YAML read as
 * something else (`slug: 3.10` is the number 3.1), is a problem to fix, never a guess.
 */
function slugFromFrontmatter(value: unknown): { readonly slug: string } | { readonly problem: string } {
  if (typeof value !== "string") {
    return { problem: `frontmatter slug is not a string (YAML read ${JSON.stringify(value)}): put it in quotes` };
  }
  const last = value
    .split("/")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .pop();
  return last === undefined
    ? { problem: "frontmatter slug names nothing: give a non-empty string, or remove it" }
    : { slug: last };
}

/** Why a post whose frontmatter marks it unpublished is left out, or undefined for a post to read. */
function draftReason(data: Readonly<Record<string, unknown>>): string | undefined {
  if (data.draft === true) return "draft: true";
  if (data.published === false) return "published: false";
  return undefined;
}

/** The study's split: `#`, `##` and `###` start sections; deeper headings are lines of their parent's text. */
export const SPLIT_DEPTH = 3;

export interface ParseOptions {
  /** The JSX attributes whose string values are prose to keep (see attribute-prose.ts); PROSE_ATTRIBUTES by default. */
  readonly proseAttributes?: readonly string[];
  /** The deepest heading (1-6) that starts a section; SPLIT_DEPTH by default. */
  readonly splitDepth?: number;
  /**
   * The study splitter's section text: code without its fence lines, links and images as markdown (URLs in them).
   * Off by default (see node-text.ts for why); what shows the tree reads a blog exactly as that splitter did.
   */
  readonly studyText?: boolean;
  /** How a file's path gives its slug (see site-layout.ts); the file-name rule by default. */
  readonly slugRule?: SlugRule;
}

/**
 * Files kept beside posts that are not posts: without a frontmatter title, a LICENSE or NOTICE is left out with a
 * note rather than stopping every command. With a title, it is a post like any other.
 */
const NOT_A_POST =
  /^(?:licen[cs]e|notice|changelog|changes|history|contributing|code_of_conduct|security|authors)(?:[.-][^/\\]*)?\.mdx?$/i;

/**
 * `file` is the path to report, and gives the slug unless the frontmatter has one (see slugFromPath in site-layout.ts).
 * Pure: no filesystem access.
 */
export function parsePost(file: string, bytes: Uint8Array, options: ParseOptions = {}): ParsedPost {
  const fail = (line: number, message: string): ParsedPost => ({
    kind: "problems",
    problems: [{ file, line, message }],
  });

  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return fail(decoded.line, "file is not valid UTF-8 (first bad byte on this line)");
  const front = splitFrontmatter(decoded.text);
  if (!front.ok) return fail(front.line, front.message);
  const draft = draftReason(front.data);
  if (draft !== undefined) return { kind: "left-out", reason: draft };
  const title = front.data.title;
  if (/^\+\+\+[ \t]*$/.test(decoded.text.split("\n", 1)[0]!)) {
    return fail(1, "frontmatter between +++ lines is TOML, which is not read: write it as YAML between --- lines");
  }
  if (typeof title !== "string" || title.trim() === "") {
    const name = file.split(/[\\/]/).pop() ?? file;
    if (NOT_A_POST.test(name)) return { kind: "left-out", reason: "no frontmatter title: a project file, not a post" };
    return fail(1, "frontmatter has no title (a non-empty string)");
  }
  let slug = slugFromPath(file, options.slugRule);
  if (front.data.slug !== undefined) {
    const own = slugFromFrontmatter(front.data.slug);
    if ("problem" in own) return fail(1, own.problem);
    slug = own.slug;
  }

  const mdx = !file.endsWith(".md");
  // Blank lines in place of the frontmatter: every line and column the parser gives, and its reasons, are the file's.
  const parsed = parseBody("\n".repeat(front.bodyLine - 1) + front.body, { mdx });
  if (isRefusal(parsed)) {
    // An unclosed comment has no column worth naming; the parser's refusals do.
    const column = parsed.reason.startsWith("MDX parser:") ? { column: parsed.column } : {};
    return { kind: "problems", problems: [{ file, line: parsed.line, ...column, message: parsed.reason }] };
  }
  const stats = newReadStats();
  sawSyntax(stats, "heading id", parsed.siteSyntax.headingIds);
  sawSyntax(stats, "mdx-code-block", parsed.siteSyntax.mdxCodeBlocks);
  const prose = new Set(options.proseAttributes ?? PROSE_ATTRIBUTES);
  const split = splitTree(
    parsed.tree,
    { source: parsed.source, prose, stats, studyText: options.studyText },
    options.splitDepth ?? SPLIT_DEPTH,
  );
  const blocks = split.blocks.map((b, i) => (i === 0 ? { ...b, line: front.bodyLine } : b));
  const built = buildSections(slug, title.trim(), blocks);
  const problems = [...split.problems, ...built.problems]
    .sort((a, b) => a.line - b.line)
    .map((p) => ({ file, line: p.line, message: p.message }));
  if (problems.length > 0) return { kind: "problems", problems };
  if (built.sections.length === 0) return fail(front.bodyLine, "post has no text (under any heading or before them)");
  const post = {
    slug,
    title: title.trim(),
    file,
    frontmatter: front.data,
    sections: built.sections,
    emptyHeadings: built.emptyHeadings,
    attributeProse: stats.kept,
    dropped: stats.dropped,
    siteSyntax: stats.siteSyntax,
    foldedHeadings: built.foldedHeadings,
  };
  return { kind: "post", post };
}
