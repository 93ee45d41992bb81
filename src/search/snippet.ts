// The study's snippet: the first 60 words of a section's text.

export const SNIPPET_WORDS = 60;

/** Words are runs of non-space characters; the snippet joins them with single spaces (line breaks included). */
export function snippet(text: string, words: number = SNIPPET_WORDS): string {
  return text.split(/\s+/).filter(Boolean).slice(0, words).join(" ");
}
