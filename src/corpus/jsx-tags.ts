// Removes JSX and HTML tags from MDX prose, keeping the text between them, and never touching code or math.

/**
 * A tag: `<Name attr="v" attr={expr} />`, `<name>`, `</Name>`, or a fragment `<>` / `</>`.
 * Attribute values may hold `>` inside quotes or braces (one level of nested braces, enough for `{{a: 1}}`),
 * and a tag may span lines. `<` not followed by a letter, `/` or `>` (as in `a < b`) is not a tag, and neither is
 * an autolink such as `<https://example.com>`.
 */
const TAG = /<\/?(?:[A-Za-z][\w.:-]*(?:\s+(?:[^<>"'{}]|"[^"]*"|'[^']*'|\{(?:[^{}]|\{[^{}]*\})*\})*)?\s*\/?)?>/g;

/** Spans left exactly as written: inline code (any number of backticks), block math `$$...$$`, inline math `$...$`. */
const PROTECTED = /(`+)[\s\S]*?\1|\$\$[\s\S]*?\$\$|\$[^$\n]+\$/g;

/** Private-use characters mark where a protected span was lifted out; they never occur in real posts. */
const OPEN = "\uE000";
const CLOSE = "\uE001";

/** Runs `edit` over the parts of `text` outside code spans and math, then puts those spans back unchanged. */
export function outsideCodeAndMath(text: string, edit: (prose: string) => string): string {
  const kept: string[] = [];
  const masked = text.replace(PROTECTED, (span) => `${OPEN}${kept.push(span) - 1}${CLOSE}`);
  return edit(masked).replace(new RegExp(`${OPEN}(\\d+)${CLOSE}`, "g"), (_, i: string) => kept[Number(i)] ?? "");
}

/** `<Callout type="tip">Check it.</Callout>` -> `Check it.`; `<Figure src="x.png" />` -> ``. */
export function stripTags(text: string): string {
  return outsideCodeAndMath(text, (prose) => prose.replace(TAG, ""));
}
