// Whether a text states a question's key facts: one normalisation for the questions check and the scorers alike.
import { markdownPlainText } from "./plain-text.ts";

/** A fact a right answer must state: its accepted phrasings, any one of which will do. */
export type Fact = readonly string[];

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1e6, billion: 1e9 };
const NUMBER_WORD = [...Object.keys(UNITS), ...Object.keys(SCALES)].join("|");
// A run of number words, "and" allowed inside it ("one hundred and twenty"), never at its ends.
const NUMBER_RUN = new RegExp(`\\b(?:${NUMBER_WORD})(?:(?: and)? (?:${NUMBER_WORD}))*\\b`, "g");

/** "one hundred and twenty three" -> 123; a scale word alone ("thousand") is left as a word. */
function numberValue(run: string): number | undefined {
  let total = 0;
  let group = 0;
  let sawUnit = false;
  for (const word of run.split(" ")) {
    if (word === "and") continue;
    const unit = UNITS[word];
    if (unit !== undefined) {
      group += unit;
      sawUnit = true;
    } else {
      const scale = SCALES[word]!;
      if (scale === 100) group = (group || 1) * 100;
      else {
        total += (group || 1) * scale;
        group = 0;
      }
    }
  }
  return sawUnit ? total + group : undefined;
}

/**
 * The text a phrase is looked for in, and the phrase itself: its markdown's plain text (emphasis with `*` or `_`,
 * code spans and links reduced to their words, see plain-text.ts), then lower case; stray `*` and backticks dropped; curly quotes straightened; a hyphen between letters read as a space ("key-value", "twenty-five");
 * "percent" read as "%"; digits' thousands commas dropped ("1,000" -> "1000"); number words read as digits ("one
 * thousand" -> "1000", "two" -> "2"); whitespace runs made one space. Small answers write numbers either way, and a
 * fact should not hang on which.
 */
export function normalizeFactText(text: string): string {
  return markdownPlainText(text)
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[*`]/g, "")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/(?<=\p{L})[-\u2010\u2011](?=\p{L})/gu, " ")
    .replace(/\s+/g, " ")
    .replace(/ ?\bper ?cent\b/g, "%")
    .replace(/(?<=\d),(?=\d{3}\b)/g, "")
    .replace(NUMBER_RUN, (run) => {
      const value = numberValue(run);
      return value === undefined ? run : String(value);
    })
    .trim();
}

// Sentence punctuation, never a symbol that carries meaning ("90%" stays "90%", "$" and "^" stay).
const EDGE_PUNCTUATION = /^[\s.,;:!?"'()[\]{}]+|[\s.,;:!?"'()[\]{}]+$/g;

/** A phrase as it is matched: normalised, with sentence punctuation at its edges dropped ("softmax." is "softmax"). */
function normalizePhrase(phrase: string): string {
  return normalizeFactText(phrase).replace(EDGE_PUNCTUATION, "");
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * The phrase occurs in the normalised text as whole words: "2" is not stated by "12" or "2.5", "cache" is not by
 * "caches"... which is why a fact lists its plural or other forms as phrasings of its own.
 */
function occursIn(normalized: string, phrase: string): boolean {
  if (phrase === "") return false;
  for (let at = normalized.indexOf(phrase); at !== -1; at = normalized.indexOf(phrase, at + 1)) {
    const before = normalized[at - 1] ?? " ";
    const after = normalized.slice(at + phrase.length, at + phrase.length + 2);
    const wordEnd = !WORD_CHAR.test(after[0] ?? " ");
    const numberGoesOn = /\d$/.test(phrase) && /^[.,]\d/.test(after);
    if (!WORD_CHAR.test(before) && wordEnd && !numberGoesOn) return true;
  }
  return false;
}

/** Which of the facts the text states (any one phrasing of each), in the facts' order. */
export function factsStated(text: string, facts: readonly Fact[]): boolean[] {
  const normalized = normalizeFactText(text);
  return facts.map((fact) => fact.some((phrase) => occursIn(normalized, normalizePhrase(phrase))));
}
