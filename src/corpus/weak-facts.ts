// Flags key facts that any on-topic answer states, so that "answer right" would count a weak answer as right.
//
// Four rules, each applied to every accepted phrasing of a fact (one phrasing is enough to satisfy a fact, so one
// weak phrasing makes the fact weak):
// - common-word: the phrasing is a single word (letters only) whose term is in at least `commonShare` of the posts
//   (a quarter by default: "memory" is in 16 of this blog's 25 posts, "exact" in 23), so any answer about the topic
//   says it;
// - in-question: every term of the phrasing is among the question's own terms, so restating the question says it
//   ("rank" for a question about "ranked lists": terms are stemmed);
// - in-both-gold: the phrasing is stated by both gold sections of a two-post question, so either half's answer
//   says it and the fact does not show that both posts were read;
// - negated: the question asks yes or no and the phrasing is still stated by its own negation ("No, they are not
//   equivalent" states "equivalent"), so the wrong verdict matches it (negation.ts says which phrasings survive).
// Terms are the analyzer's (the command passes BM25's: stop words out, stemmed), as in answer-overlap.ts.
//
// A flag that stays is cleared on the question's line, `"cleared": [{"fact": 2, "rule": "common-word", "reason":
// "..."}]`; a clearing that matches no flag is a problem too, so a reason cannot outlive the fact it was for.
import { factsStated } from "./facts.ts";
import { normalizeFactText } from "./facts.ts";
import { isYesNoQuestion, negatedForms } from "./negation.ts";
import type { WEAK_FACT_RULES } from "./question-schema.ts";
import {
  questionHeadings,
  questionPosts,
  type Corpus,
  type InputProblem,
  type Question,
  type Section,
} from "./types.ts";

export type WeakFactRule = (typeof WEAK_FACT_RULES)[number];

/** The terms of a text, in order (the search's analysis). */
export type TermAnalyzer = (text: string) => readonly string[];

export interface WeakFactOptions {
  /** Least share of the posts a single word must be in to count as common (0.25). */
  readonly commonShare?: number;
}

export const WEAK_FACT_DEFAULTS = { commonShare: 0.25 } as const;

/** One weak phrasing of one fact. */
export interface WeakFactFlag {
  readonly id: string;
  /** 1-based, in the question's `facts` order. */
  readonly fact: number;
  readonly phrasing: string;
  readonly rule: WeakFactRule;
  /**
   * Why it was flagged, for the message: "in 16 of 25 posts", 'the question says "ranked"', "both gold sections say
   * it", '"not equivalent" states it'.
   */
  readonly why: string;
}

/** A flagged fact that stays, and the reason its line gives. */
export interface ClearedFlag {
  readonly id: string;
  readonly fact: number;
  readonly rule: WeakFactRule;
  readonly phrasings: readonly string[];
  readonly reason: string;
}

export interface WeakFactReport {
  /** Flags no clearing covers, and clearings that match no flag: one problem each, with its line. */
  readonly problems: readonly InputProblem[];
  readonly cleared: readonly ClearedFlag[];
}

/** How many posts hold each term (heading or text of any section). */
function postFrequencies(corpus: Corpus, analyze: TermAnalyzer): ReadonlyMap<string, number> {
  const df = new Map<string, number>();
  for (const post of corpus.posts) {
    const terms = new Set(post.sections.flatMap((s) => analyze(`${s.heading}\n${s.text}`)));
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return df;
}

const edgeTrimmed = (word: string) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");

/**
 * The question's own words that give a phrasing's terms, for the message: 'the question says "ranked"' when they
 * stand together in the phrasing's order, 'the question has its words apart: "table", "block"' when they do not.
 */
function inQuestionWhy(terms: readonly string[], question: string, analyze: TermAnalyzer): string {
  const words = (question.match(/\S+/g) ?? []).map(edgeTrimmed);
  const termsOf = words.map((w) => analyze(w));
  const at = [...new Set(terms)].map((t) => termsOf.findIndex((ts) => ts.includes(t)));
  const said = at.map((i) => (i === -1 ? undefined : words[i])).filter((w) => w !== undefined);
  const together = at.every((i, k) => k === 0 || i === at[k - 1]! + 1);
  if (said.length === 0) return "the question says it";
  return together
    ? `the question says ${JSON.stringify(said.join(" "))}`
    : `the question has its words apart: ${said.map((w) => JSON.stringify(w)).join(", ")}`;
}

/** Every weak phrasing of one question's facts. Pure; `sectionOf` gives a gold section (undefined: not found). */
export function weakFactFlags(
  question: Question,
  corpus: Corpus,
  analyze: TermAnalyzer,
  sectionOf: (post: string, heading: string) => Section | undefined,
  options: WeakFactOptions = {},
  df: ReadonlyMap<string, number> = postFrequencies(corpus, analyze),
): WeakFactFlag[] {
  const { commonShare } = { ...WEAK_FACT_DEFAULTS, ...options };
  const posts = corpus.posts.length;
  const asked = new Set(analyze(question.question));
  const yesNo = isYesNoQuestion(question.question);
  const headings = questionHeadings(question);
  const golds = questionPosts(question).map((post, i) => sectionOf(post, headings[i]!)?.text);
  const flags: WeakFactFlag[] = [];
  (question.facts ?? []).forEach((phrasings, f) => {
    const flag = (phrasing: string, rule: WeakFactRule, why: string) =>
      flags.push({ id: question.id, fact: f + 1, phrasing, rule, why });
    for (const phrasing of phrasings) {
      const terms = analyze(phrasing);
      const word = normalizeFactText(phrasing);
      if (/^\p{L}+$/u.test(word) && terms.length === 1) {
        const count = df.get(terms[0]!) ?? 0;
        if (posts > 0 && count / posts >= commonShare) flag(phrasing, "common-word", `in ${count} of ${posts} posts`);
      }
      if (terms.length > 0 && terms.every((t) => asked.has(t)))
        flag(phrasing, "in-question", inQuestionWhy(terms, question.question, analyze));
      if (golds.length === 2 && golds.every((text) => text !== undefined && factsStated(text, [[phrasing]])[0]))
        flag(phrasing, "in-both-gold", "both gold sections say it");
      const negation = yesNo ? negatedForms(phrasing).find((n) => factsStated(n, [[phrasing]])[0]) : undefined;
      if (negation !== undefined) flag(phrasing, "negated", `${JSON.stringify(negation)} states it`);
    }
  });
  return flags;
}

const RULE_TEXT: Record<WeakFactRule, string> = {
  "common-word": "a single common word",
  "in-question": "in the question itself",
  "in-both-gold": "in both gold sections",
  negated: "stated by its own negation in a yes/no question",
};

/**
 * The weak-fact check of a whole file: each fact's flags grouped by rule, set against the line's clearings.
 * `questions` carry their 1-based line; facts whose gold section is missing are checked on what is found.
 */
export function checkWeakFacts(
  file: string,
  questions: readonly { readonly line: number; readonly question: Question }[],
  corpus: Corpus,
  analyze: TermAnalyzer,
  options: WeakFactOptions = {},
): WeakFactReport {
  const df = postFrequencies(corpus, analyze);
  const bySlug = new Map(corpus.posts.map((p) => [p.slug, p]));
  const sectionOf = (slug: string, heading: string) => bySlug.get(slug)?.sections.find((s) => s.heading === heading);
  const problems: InputProblem[] = [];
  const cleared: ClearedFlag[] = [];
  for (const { line, question } of questions) {
    const flags = weakFactFlags(question, corpus, analyze, sectionOf, options, df);
    const groups = new Map<string, WeakFactFlag[]>();
    for (const flag of flags) {
      const key = `${flag.fact} ${flag.rule}`;
      groups.set(key, [...(groups.get(key) ?? []), flag]);
    }
    const clearings = question.cleared ?? [];
    for (const [key, group] of groups) {
      const { fact, rule } = group[0]!;
      const clearing = clearings.find((c) => `${c.fact} ${c.rule}` === key);
      const phrasings = group.map((g) => g.phrasing);
      if (clearing !== undefined) {
        cleared.push({ id: question.id, fact, rule, phrasings, reason: clearing.reason });
        continue;
      }
      const said = group.map((g) => `${JSON.stringify(g.phrasing)} (${g.why})`).join(", ");
      problems.push({
        file,
        line,
        message:
          `fact ${fact} is weak, ${RULE_TEXT[rule]}: ${said}; state what only a right answer says, or keep it ` +
          `with "cleared": [{"fact": ${fact}, "rule": "${rule}", "reason": "..."}]`,
      });
    }
    for (const c of clearings) {
      if (groups.has(`${c.fact} ${c.rule}`)) continue;
      problems.push({
        file,
        line,
        message: `"cleared" names fact ${c.fact} for rule ${c.rule}, which flags nothing there: drop the clearing`,
      });
    }
  }
  return { problems, cleared };
}

/** The lines `questions check` prints: how many flags were cleared, then each with its reason. */
export function formatClearedFlags(cleared: readonly ClearedFlag[]): string[] {
  if (cleared.length === 0) return ["weak facts: none flagged, none cleared"];
  return [
    `weak facts: ${cleared.length} flag${cleared.length === 1 ? "" : "s"} cleared, each with its reason:`,
    ...cleared.map(
      (c) =>
        `  ${c.id} fact ${c.fact} ${c.rule} (${c.phrasings.map((p) => JSON.stringify(p)).join(", ")}): ${c.reason}`,
    ),
  ];
}
