// search-eval's measure: how often the right post comes first, in the top 3, its mean reciprocal rank, and where.
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

/** Where one question's right post first came: its rank (1 is first), or null when no hit was from it. */
export interface QuestionRank {
  readonly id: string;
  readonly rank: number | null;
}

/** A retriever's score and, question by question in the file's order, where its right post first came. */
export interface SearchEvaluation extends RetrieverScore {
  readonly ranks: readonly QuestionRank[];
}

/** Runs every question as a query, as the workflow does, ranking every section so MRR sees past the top 3. */
export async function evaluateSearch(index: SearchIndex, questions: readonly Question[]): Promise<SearchEvaluation> {
  const rankedPosts: string[][] = [];
  for (const q of questions)
    rankedPosts.push((await index.search(q.question, index.corpus.sections.length)).map((hit) => hit.post));
  const gold = questions.map(questionPosts);
  const ranks = questions.map((q, i) => {
    const rank = rankedPosts[i]!.findIndex((post) => gold[i]!.includes(post)) + 1;
    return { id: q.id, rank: rank === 0 ? null : rank };
  });
  return { ...scoreRankings(gold, rankedPosts), ranks };
}

/**
 * The questions some retriever did not find first, one line each with every retriever's rank ("-": never), so a
 * miss is named, not only counted:
 *   q07  bm25 4  dense 1  hybrid 2
 * Empty when every retriever found every question first.
 */
export function formatMisses(results: Readonly<Record<string, SearchEvaluation>>): string[] {
  const kinds = Object.keys(results);
  const ids = results[kinds[0] ?? ""]?.ranks.map((r) => r.id) ?? [];
  const width = Math.max(0, ...ids.map((id) => id.length));
  const lines: string[] = [];
  ids.forEach((id, i) => {
    const ranks = kinds.map((kind) => results[kind]!.ranks[i]?.rank ?? null);
    if (ranks.every((rank) => rank === 1)) return;
    const cells = kinds.map((kind, k) => `${kind} ${ranks[k] === null ? "-" : String(ranks[k])}`);
    lines.push(`${id.padEnd(width)}  ${cells.join("  ")}`);
  });
  return lines;
}
