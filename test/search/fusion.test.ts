// Reciprocal rank fusion as a pure function over hand-built rankings, and the study's 60-word snippet.
import { test } from "node:test";
import assert from "node:assert/strict";
import { snippet } from "../../src/search/index.ts";
import { reciprocalRankFusion, RRF_K } from "../../src/search/fusion.ts";
import { scoreRankings } from "../../src/search/evaluate.ts";

test("RRF sums 1/(k + rank) over the rankings that hold an item", () => {
  const fused = reciprocalRankFusion([
    ["a", "b"],
    ["b", "c"],
  ]);
  assert.deepEqual(
    fused.map((f) => f.item),
    ["b", "a", "c"],
  );
  assert.equal(fused[0]!.score, 1 / 62 + 1 / 61);
  assert.equal(fused[1]!.score, 1 / 61);
  assert.equal(fused[2]!.score, 1 / 62);
  assert.equal(RRF_K, 60);
});

test("RRF uses ranks only: agreement beats one top spot, and k changes how much", () => {
  // x is 1st in one list only; y is 2nd in both.
  const rankings = [
    ["x", "y"],
    ["z", "y", "w", "x"],
  ];
  // k = 60: y = 2/62 beats x = 1/61 + 1/64.
  assert.equal(reciprocalRankFusion(rankings)[0]!.item, "y");
  // k = 0: x = 1 + 1/4 wins; y = 1/2 + 1/2 ties z = 1/1, and z's better single rank puts it first.
  assert.deepEqual(
    reciprocalRankFusion(rankings, 0).map((f) => f.item),
    ["x", "z", "y", "w"],
  );
});

test("RRF breaks ties by best single rank, then by first appearance; empty input gives nothing", () => {
  assert.deepEqual(
    reciprocalRankFusion([
      [1, 2],
      [2, 1],
    ]).map((f) => f.item),
    [1, 2],
  );
  assert.deepEqual(
    reciprocalRankFusion([[3], [4]]).map((f) => f.item),
    [3, 4],
  );
  assert.deepEqual(reciprocalRankFusion([]), []);
  assert.deepEqual(
    reciprocalRankFusion([[], [5]]).map((f) => f.item),
    [5],
  );
  assert.throws(() => reciprocalRankFusion([[1]], -1), RangeError);
});

test("a snippet is the first 60 words, joined by single spaces", () => {
  const words = Array.from({ length: 70 }, (_, i) => `w${i}`);
  assert.equal(snippet(words.join(" \n ")), words.slice(0, 60).join(" "));
  assert.equal(snippet("  short\n\ntext  "), "short text");
  assert.equal(snippet(""), "");
});

test("search-eval's scores: counts at 1 and 3, and MRR of the right post's first hit", () => {
  const score = scoreRankings(
    ["a", "b", "c", "d"],
    [
      ["a", "x"], // rank 1
      ["x", "x", "b"], // rank 3
      ["x", "x", "x", "c"], // rank 4
      ["x"], // never
    ],
  );
  assert.deepEqual(score, {
    questions: 4,
    found_at_1: 1,
    found_at_3: 2,
    mrr: Math.round(((1 + 1 / 3 + 1 / 4) / 4) * 1e4) / 1e4,
  });
  assert.deepEqual(scoreRankings([], []), { questions: 0, found_at_1: 0, found_at_3: 0, mrr: 0 });
});

test("search-eval on two-post questions: either post counts as found, all_at_3 wants both in the top 3", () => {
  const score = scoreRankings(
    [["a", "b"], ["c", "d"], "e"],
    [
      ["b", "x", "a"], // b first, both in the top 3
      ["x", "x", "d", "c"], // d at 3, c only at 4
      ["e"], // a one-post question in the same set
    ],
  );
  assert.deepEqual(score, {
    questions: 3,
    found_at_1: 2,
    found_at_3: 3,
    all_at_3: 2,
    mrr: Math.round(((1 + 1 / 3 + 1) / 3) * 1e4) / 1e4,
  });
});
