// Parses one .mdx or .md file's bytes into a Post, says why it is left out (a draft), or lists every problem in it.
import type { InputProblem, Post } from "./types.ts";
import { decodeUtf8 } from "./decode-utf8.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import { scanBody } from "./scan-body.ts";
import { buildSections } from "./sections.ts";

export type ParsedPost =
  | { readonly kind: "post"; readonly post: Post }
  | { readonly kind: "left-out"; readonly reason: string }
  | { readonly kind: "problems"; readonly problems: readonly InputProblem[] };

/** The names that make a file its folder's post (page bundles: `my-post/index.mdx` in Docusaurus, Astro, Hugo). */
const BUNDLE_NAMES = new Set(["index"]);

/**
 * The slug a file gets from where it lies: its name without `.mdx` or `.md`, or, for `my-post/index.mdx`, the
 * folder's name. `file` may be a relative or absolute path with either separator.
 */
export function slugFromPath(file: string): string {
  const parts = file.split(/[\\/]/).filter((part) => part !== "");
  const name = (parts.pop() ?? file).replace(/\.mdx?$/, "");
  return BUNDLE_NAMES.has(name) && parts.length > 0 ? parts[parts.length - 1]! : name;
}

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

export interface ParseOptions {
  /** The JSX attributes whose string values are prose to keep (see jsx-tags.ts); PROSE_ATTRIBUTES by default. */
  readonly proseAttributes?: readonly string[];
}

/**
 * `file` is the path to report, and gives the slug unless the frontmatter has one (see slugFromPath).
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
  if (typeof title !== "string" || title.trim() === "") return fail(1, "frontmatter has no title (a non-empty string)");
  let slug = slugFromPath(file);
  if (front.data.slug !== undefined) {
    const own = slugFromFrontmatter(front.data.slug);
    if ("problem" in own) return fail(1, own.problem);
    slug = own.slug;
  }

  const scan = scanBody(front.body, front.bodyLine, { esm: !file.endsWith(".md") });
  const built = buildSections(slug, title.trim(), scan.blocks, options.proseAttributes);
  const problems = [...scan.problems, ...built.problems]
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
    attributeProse: built.attributeProse,
  };
  return { kind: "post", post };
}
