// Removes HTML tags from text the MDX parser does not read as JSX: a `.md` post's raw HTML, a heading, a value.
import type { KeptAttribute } from "./read-stats.ts";

/**
 * A tag: `<Name attr="v" attr={expr} />`, `<name>`, `</Name>`, or a fragment `<>` / `</>`.
 * Attribute values may hold `>` inside quotes or braces (one level of nested braces, enough for `{{a: 1}}`),
 * and a tag may span lines. `<` not followed by a letter, `/` or `>` (as in `a < b`) is not a tag, and neither is
 * an autolink such as `<https://example.com>`.
 */
const TAG = /<\/?(?:[A-Za-z][\w.:-]*(?:\s+(?:[^<>"'{}]|"[^"]*"|'[^']*'|\{(?:[^{}]|\{[^{}]*\})*\})*)?\s*\/?)?>/g;

/**
 * One attribute whose value is a string: `a="v"`, `a='v'`, or a string expression `a={"v"}`, `a={'v'}`. Any other
 * expression is code, not prose; a template literal too (its backticks read as inline code before tags are seen).
 */
const STRING_ATTRIBUTE =
  /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\})/g;

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

/** A JSX string's escapes (`\"`, `\n`) as the text they stand for; quoted attributes have none. */
const jsStringText = (value: string): string => value.replace(/\\(.)/g, (_, c: string) => (c === "n" ? " " : c));

/** Markup inside an attribute's value (`"Flow: <div>a</div>"`) goes too; its words, on one line, are what is kept. */
const attributeText = (value: string): string => stripTags(value).replace(/\s+/g, " ").trim();

/**
 * Like stripTags, but an opening or self-closing tag's prose attributes (`names`) leave their text in its place,
 * spaced from the words around it: `<Caption text="Two <b>steps</b>"/>` -> `Two steps`. Says what it kept.
 */
export function stripTagsKeepingProse(
  text: string,
  names: readonly string[],
): { readonly text: string; readonly kept: readonly KeptAttribute[] } {
  const wanted = new Set(names);
  const kept: KeptAttribute[] = [];
  const out = outsideCodeAndMath(text, (prose) =>
    prose.replace(TAG, (tag: string, at: number, whole: string) => {
      const name = /^<([A-Za-z][\w.:-]*)/.exec(tag)?.[1];
      if (name === undefined || wanted.size === 0) return "";
      const words: string[] = [];
      for (const m of tag.slice(name.length + 1).matchAll(STRING_ATTRIBUTE)) {
        if (!wanted.has(m[1]!)) continue;
        const raw = m[2] ?? m[3] ?? jsStringText(m[4] ?? m[5] ?? "");
        const value = attributeText(raw);
        if (value === "") continue;
        words.push(value);
        kept.push({ tag: name, attribute: m[1]! });
      }
      if (words.length === 0) return "";
      const before = at > 0 && /\S/.test(whole[at - 1]!) ? " " : "";
      const after = at + tag.length < whole.length && /\S/.test(whole[at + tag.length]!) ? " " : "";
      return `${before}${words.join(" ")}${after}`;
    }),
  );
  return { text: out, kept };
}
