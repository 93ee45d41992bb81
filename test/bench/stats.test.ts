// The benchmark's pure helpers: medians, busy time as a union of intervals, overhead, changed answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { median, overheadFraction, unionSeconds } from "../../scripts/bench/stats.ts";
import { changedAnswers } from "../../scripts/bench/rows.ts";

test("median of odd and even counts, unsorted input left alone", () => {
  const xs = [5, 1, 3];
  assert.equal(median(xs), 3);
  assert.deepEqual(xs, [5, 1, 3]);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([7]), 7);
  assert.throws(() => median([]));
});

test("unionSeconds counts overlapping calls once", () => {
  assert.equal(unionSeconds([]), 0);
  assert.equal(
    unionSeconds([
      { start: 0, end: 2 },
      { start: 1, end: 3 },
      { start: 5, end: 6 },
    ]),
    4,
  );
  // nested and out-of-order intervals, and touching ones
  assert.equal(
    unionSeconds([
      { start: 4, end: 5 },
      { start: 0, end: 10 },
      { start: 2, end: 3 },
    ]),
    10,
  );
  assert.equal(
    unionSeconds([
      { start: 0, end: 1 },
      { start: 1, end: 2 },
    ]),
    2,
  );
  // eight parallel calls of 1 s each over the same second keep the model busy for 1 s, not 8
  assert.equal(unionSeconds(Array.from({ length: 8 }, () => ({ start: 3, end: 4 }))), 1);
});

test("overheadFraction is the share of wall time with no call running, clamped", () => {
  assert.equal(overheadFraction(10, 9), 0.1);
  assert.equal(overheadFraction(10, 12), 0);
  assert.equal(overheadFraction(0, 0), 0);
});

test("changedAnswers counts differing and missing runs", () => {
  const naive = new Map([
    ["workflow q01", "a"],
    ["agent q01", "b"],
    ["agent q02", "c"],
  ]);
  assert.equal(changedAnswers(naive, new Map(naive)), 0);
  assert.equal(
    changedAnswers(
      naive,
      new Map([
        ["workflow q01", "a"],
        ["agent q01", "x"],
      ]),
    ),
    2,
  );
});
