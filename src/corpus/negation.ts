// Yes/no questions, and what a wrong answer that negates a fact's phrasing writes: the weak-fact check's negation rule.
import { normalizeFactText } from "./facts.ts";

// The verbs a yes/no question opens with ("Is ...", "Does ...", "Can ..."), and that a negation follows.
const AUXILIARIES = new Set([
  "am",
  "is",
  "are",
  "was",
  "were",
  "be",
  "do",
  "does",
  "did",
  "can",
  "could",
  "should",
  "would",
  "will",
  "shall",
  "may",
  "might",
  "must",
  "has",
  "have",
  "had",
]);

// Words that open a subordinate clause before the question proper: "If vectors are normalised, does it matter ...?"
const LEADING_CLAUSE = new Set([
  "if",
  "when",
  "once",
  "after",
  "before",
  "given",
  "since",
  "although",
  "though",
  "while",
  "unless",
  "suppose",
  "assuming",
]);

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/**
 * Whether a question asks for a yes or a no: it opens with an auxiliary verb ("Is it exact, and ...?"), or does so
 * after a leading clause and its comma ("If vectors are normalised, does it matter ...?"). "Why does ...?" does not.
 */
export function isYesNoQuestion(question: string): boolean {
  const first = words(question)[0];
  if (first === undefined) return false;
  if (AUXILIARIES.has(first)) return true;
  const comma = question.indexOf(",");
  return LEADING_CLAUSE.has(first) && comma !== -1 && AUXILIARIES.has(words(question.slice(comma + 1))[0] ?? "");
}

// A negation already in the phrasing: the wrong answer drops it, and the phrasing is no longer in what it says.
const NEGATED = /(?:^|\s)(?:not|no|never|none|nor|neither|without|cannot)(?=\s|$)|n't(?=\s|$)/u;

// The negations a wrong answer puts before a phrasing that does not open with a verb ("not equivalent").
const NEGATIONS = ["not", "no", "never", "isn't", "aren't", "doesn't", "don't", "without"];

/**
 * What a wrong answer writes when it negates the phrasing, in the normalised form facts are matched in: a negation
 * before it ("equivalent" -> "not equivalent"), or after its opening verb ("are equivalent" -> "are not equivalent",
 * "aren't equivalent"). None for a phrasing that holds a negation itself ("not bitwise identical": the wrong answer
 * says "bitwise identical"), or a digit (a number or a formula, "2 - 2a·b": a negation before it is no verdict).
 */
export function negatedForms(phrasing: string): string[] {
  const normalized = normalizeFactText(phrasing);
  if (normalized === "" || NEGATED.test(normalized) || /\p{N}/u.test(normalized)) return [];
  const [first, ...rest] = normalized.split(" ");
  if (AUXILIARIES.has(first!) && rest.length > 0) {
    const tail = rest.join(" ");
    return [`${first} not ${tail}`, `${first}n't ${tail}`];
  }
  return NEGATIONS.map((negation) => `${negation} ${normalized}`);
}
