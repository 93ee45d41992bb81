// search-eval's measure: how often the right post comes first, in the top 3, and its mean reciprocal rank.
import { questionPosts, type Question } from "../corpus/index.ts";
import type { SearchIndex } from "./types.ts";

/**
 * Counts, not fractions (as the study reports "found"); mrr is the mean over questions of 1 / rank of the first hit
 * from a right post. For a two-post question a "right post" is either of its two; `all_at_3` (present only when
 * some question has two posts) counts the questions whose every post is in the top 3.
 */
export interface RetrieverScore {
  readonly questions: number;
  readonly found_at_1: number;
  readonly found_at_3: number;
  readonly all_at_3?: number;
  readonly mrr: number;
}

/**
 * Pure: `rankedPosts[i]` is the post of every hit for question i, best first; `gold[i]` the post (or posts) that
 * answer it. A question whose posts never appear adds 0 to the MRR. MRR is rounded to 4 decimals for stable output.
 */
export function scoreRankings(
  gold: readonly (string | readonly string[])[],
  rankedPosts: readonly (readonly string[])[],
): RetrieverScore {
  let at1 = 0;
  let at3 = 0;
  let all3 = 0;
  let reciprocal = 0;
  const golds = gold.map((g) => (typeof g === "string" ? [g] : g));
  golds.forEach((posts, i) => {
    const ranked = rankedPosts[i] ?? [];
    const rank = ranked.findIndex((post) => posts.includes(post)) + 1;
    if (rank === 1) at1 += 1;
    if (rank >= 1 && rank <= 3) at3 += 1;
    if (rank >= 1) reciprocal += 1 / rank;
    if (posts.every((post) => ranked.slice(0, 3).includes(post))) all3 += 1;
  });
  const mrr = gold.length === 0 ? 0 : Math.round((reciprocal / gold.length) * 1e4) / 1e4;
  const twoPost = golds.some((posts) => posts.length > 1);
  return { questions: gold.length, found_at_1: at1, found_at_3: at3, ...(twoPost ? { all_at_3: all3 } : {}), mrr };
}

/** Runs every question as a query, as the workflow does, ranking every section so MRR sees past the top 3. */
export async function evaluateSearch(index: SearchIndex, questions: readonly Question[]): Promise<RetrieverScore> {
  const rankedPosts: string[][] = [];
  for (const q of questions)
    rankedPosts.push((await index.search(q.question, index.corpus.sections.length)).map((hit) => hit.post));
  return scoreRankings(questions.map(questionPosts), rankedPosts);
}
