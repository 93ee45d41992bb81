// search-eval names its misses: each question's rank of its right post, per retriever, in text and JSON.
import { test } from "node:test";
import assert from "node:assert/strict";
import { evaluateSearch, formatMisses, type SearchEvaluation } from "../../src/search/evaluate.ts";
import type { SearchIndex } from "../../src/search/types.ts";
import type { Question } from "../../src/corpus/index.ts";

/** An index whose search gives, for each question text, hits from these posts in this order. */
function scripted(order: Record<string, readonly string[]>): SearchIndex {
  return {
    corpus: { sections: Array.from({ length: 5 }, () => ({})) },
    search: async (query: string) => (order[query] ?? []).map((post) => ({ post })),
  } as unknown as SearchIndex;
}

const q = (id: string, post: string): Question => ({ id, question: id, post, heading: "H" }) as unknown as Question;

test("evaluateSearch gives every question's rank of its right post, null when it never came", async () => {
  const index = scripted({ q1: ["a", "b"], q2: ["a", "c", "b"], q3: ["a", "c"] });
  const result = await evaluateSearch(index, [q("q1", "a"), q("q2", "b"), q("q3", "b")]);
  assert.deepEqual(result.ranks, [
    { id: "q1", rank: 1 },
    { id: "q2", rank: 3 },
    { id: "q3", rank: null },
  ]);
  assert.equal(result.found_at_1, 1);
  assert.equal(result.found_at_3, 2);
});

test("the text names each question some retriever did not find first, with every retriever's rank", () => {
  const score = { questions: 3, found_at_1: 0, found_at_3: 0, mrr: 0 };
  const results: Record<string, SearchEvaluation> = {
    bm25: {
      ...score,
      ranks: [
        { id: "q1", rank: 1 },
        { id: "q10", rank: 4 },
        { id: "q2", rank: null },
      ],
    },
    hybrid: {
      ...score,
      ranks: [
        { id: "q1", rank: 1 },
        { id: "q10", rank: 1 },
        { id: "q2", rank: 12 },
      ],
    },
  };
  assert.deepEqual(formatMisses(results), ["q10  bm25 4  hybrid 1", "q2   bm25 -  hybrid 12"]);
  assert.deepEqual(formatMisses({ bm25: { ...score, ranks: [{ id: "q1", rank: 1 }] } }), []);
});
