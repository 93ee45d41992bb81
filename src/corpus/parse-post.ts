// Parses one .mdx file's bytes into a Post, or lists every problem found in it (with file lines).
import type { InputProblem, Post } from "./types.ts";
import { decodeUtf8 } from "./decode-utf8.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import { scanBody } from "./scan-body.ts";
import { buildSections } from "./sections.ts";

export type ParsedPost = { readonly ok: true; readonly post: Post } | { readonly ok: false; readonly problems: readonly InputProblem[] };

/** `file` is the path to report; the slug is its base name without `.mdx`. Pure: no filesystem access. */
export function parsePost(file: string, bytes: Uint8Array): ParsedPost {
  const slug = (file.split(/[\\/]/).pop() ?? file).replace(/\.mdx$/, "");
  const fail = (line: number, message: string): ParsedPost => ({ ok: false, problems: [{ file, line, message }] });

  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return fail(decoded.line, "file is not valid UTF-8 (first bad byte on this line)");
  const front = splitFrontmatter(decoded.text);
  if (!front.ok) return fail(front.line, front.message);
  const title = front.data.title;
  if (typeof title !== "string" || title.trim() === "") return fail(1, "frontmatter has no title (a non-empty string)");

  const scan = scanBody(front.body, front.bodyLine);
  const built = buildSections(slug, title.trim(), scan.blocks);
  const problems = [...scan.problems, ...built.problems]
    .sort((a, b) => a.line - b.line)
    .map((p) => ({ file, line: p.line, message: p.message }));
  if (problems.length > 0) return { ok: false, problems };
  if (built.sections.length === 0) return fail(front.bodyLine, "post has no text and no h2/h3 headings");
  return { ok: true, post: { slug, title: title.trim(), file, frontmatter: front.data, sections: built.sections } };
}
