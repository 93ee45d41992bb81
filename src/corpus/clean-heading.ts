// Turns a markdown heading into the plain name a reader (and read_section) uses for it.
import { stripTags } from "./jsx-tags.ts";

/**
 * Strips markup, keeping the words:
 *   "Using `softmax` with **care**" -> "Using softmax with care"
 *   "[Links](/posts/x) and ![images](a.png)" -> "Links and images"
 *   "Custom ids {#my-id}" -> "Custom ids" (Docusaurus's id, escaped to `\{#my-id\}` in MDX: site-syntax.ts)
 * Inline code is lifted out first and put back last (its own marker characters, apart from jsx-tags.ts's) so that
 * `__init__` inside backticks keeps its underscores.
 */
export function cleanHeading(raw: string): string {
  const code: string[] = [];
  let text = raw.replace(
    /(`+)\s?([\s\S]*?)\s?\1/g,
    (_, _ticks: string, inner: string) => `\uE002${code.push(inner) - 1}\uE003`,
  );
  text = stripTags(text)
    .replace(/\s*\\?\{#[\w-]+\\?\}\s*$/, "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, "$1")
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/g, "$1$2")
    .replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?!\w)/g, "$1$2")
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, "$1")
    .replace(/\\([\\`*_{}[\]()#+\-.!<>~|])/g, "$1");
  text = text.replace(/\uE002(\d+)\uE003/g, (_, i: string) => code[Number(i)] ?? "");
  return text.replace(/\s+/g, " ").trim();
}
