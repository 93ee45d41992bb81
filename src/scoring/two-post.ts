// Scoring a question that needs two posts: did the run see them, and does its source line name exactly the gold set?
import { goldPostsOf, type AnswerRecord } from "../runs/index.ts";
import { classifySource } from "./strict.ts";

/**
 * The strict classes of a source line against the gold set G, over the text after the last "Source:":
 * exact: the line names every post of G and no other; subset: some of G, not all, no other;
 * superset: all of G plus others; mixed: some of G, not all, plus others; none-of-gold: a line naming no post
 * of G (an invented or placeholder line included); no-source: no "Source:" at all.
 * The six are exhaustive: "mixed" is the case the four named ones leave out.
 */
export type TwoPostClass = "exact" | "subset" | "superset" | "mixed" | "none-of-gold" | "no-source";
/** The classes in table order (the tests check the scorer against each). @internal */
export const TWO_POST_CLASSES: readonly TwoPostClass[] = [
  "exact",
  "subset",
  "superset",
  "mixed",
  "none-of-gold",
  "no-source",
];

export interface TwoPostVerdict {
  readonly kind: TwoPostClass;
  /** The text after the last "Source:"; undefined when there is none. */
  readonly line: string | undefined;
  /** Every slug of the blog found in that line, in the order of the slug list. */
  readonly posts: readonly string[];
}

/**
 * Example, G = [kv-cache-inference, serving-and-batching]: "Source: serving-and-batching, kv-cache-inference" is
 * exact (order and separators are free); "Source: kv-cache-inference" a subset. Slugs match as substrings, as in
 * the study's strict rescore.
 */
export function classifyTwoPostSource(
  answer: string,
  gold: readonly string[],
  slugs: readonly string[],
): TwoPostVerdict {
  const { kind, line, posts } = classifySource(answer, slugs);
  if (kind === "none") return { kind: "no-source", line, posts };
  const inGold = gold.filter((post) => posts.includes(post)).length;
  const others = posts.some((post) => !gold.includes(post));
  const verdict = (k: TwoPostClass): TwoPostVerdict => ({ kind: k, line, posts });
  if (inGold === 0) return verdict("none-of-gold");
  if (inGold === gold.length) return verdict(others ? "superset" : "exact");
  return verdict(others ? "mixed" : "subset");
}

/** Cites right for a two-post question: exactly G. */
export function citesRightExact(verdict: TwoPostVerdict): boolean {
  return verdict.kind === "exact";
}

/** The run's searches and reads showed every post of G. */
export function foundAll(r: AnswerRecord): boolean {
  return goldPostsOf(r).every((post) => r.seen_posts.includes(post));
}

/** The run's searches and reads showed at least one post of G. */
export function foundAny(r: AnswerRecord): boolean {
  return goldPostsOf(r).some((post) => r.seen_posts.includes(post));
}

/** Why a source line got its class, for the transcript browser. */
export function explainTwoPostSource(verdict: TwoPostVerdict, gold: readonly string[]): string {
  const named = verdict.posts.length === 0 ? "no post of the blog" : verdict.posts.join(", ");
  const want = `the question needs ${gold.join(" and ")}`;
  switch (verdict.kind) {
    case "no-source":
      return 'no source line: the answer has no "Source:"';
    case "exact":
      return `exactly the gold posts: ${named}`;
    case "subset":
      return `a strict subset: the line names ${named}; ${want}`;
    case "superset":
      return `the gold posts plus others: the line names ${named}; ${want}`;
    case "mixed":
      return `some of the gold posts plus others: the line names ${named}; ${want}`;
    case "none-of-gold":
      return `none of the gold posts: the line names ${named}; ${want}`;
  }
}
