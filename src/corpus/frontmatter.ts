// Splits a post's YAML frontmatter from its body and parses it with gray-matter, with file lines for errors.
import { createRequire } from "node:module";
import type matterType from "gray-matter";

/** gray-matter (and its YAML parser), required on the first post with frontmatter. */
let matter: typeof matterType | undefined;

export type Frontmatter =
  | {
      readonly ok: true;
      readonly data: Readonly<Record<string, unknown>>;
      /** The text after the closing `---` line. */
      readonly body: string;
      /** 1-based file line of the body's first line: adds to body line numbers to name file lines. */
      readonly bodyLine: number;
    }
  | { readonly ok: false; readonly line: number; readonly message: string };

const FENCE = /^---[ \t]*$/;

/**
 * A post may open with `---` ... `---`. We find the closing line ourselves because gray-matter, given no
 * closing fence, silently reads the whole post as YAML; that must be an error naming the opening line.
 */
export function splitFrontmatter(text: string): Frontmatter {
  const lines = text.split("\n");
  if (!FENCE.test(lines[0] ?? "")) return { ok: true, data: {}, body: text, bodyLine: 1 };
  const close = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (close < 0)
    return { ok: false, line: 1, message: "frontmatter opened with --- is never closed (no second --- line)" };
  try {
    // Passing an options object keeps gray-matter from caching by content (its cache returns shared objects).
    matter ??= createRequire(import.meta.url)("gray-matter") as typeof matterType;
    const parsed = matter(`${lines.slice(0, close + 1).join("\n")}\n`, {});
    return { ok: true, data: { ...parsed.data }, body: lines.slice(close + 1).join("\n"), bodyLine: close + 2 };
  } catch (error) {
    // js-yaml's mark counts lines from 0 starting at the opening fence's line end, so +1 is the file line.
    const mark = (error as { mark?: { line?: unknown } }).mark;
    const line = typeof mark?.line === "number" ? mark.line + 1 : 1;
    const reason = (error as { reason?: unknown }).reason;
    return {
      ok: false,
      line,
      message: `frontmatter is not valid YAML: ${typeof reason === "string" ? reason : String(error)}`,
    };
  }
}
