// The repeat, paired and sensitivity tables on hand-built records: every figure worked out by hand below.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { OnePostAnswer } from "../../src/runs/answer-types.ts";
import type { DesignId } from "../../src/designs/registry.ts";
import { pairedRateRows, repeatRows, sensitivityRows } from "../../src/scoring/repeat-rows.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const SLUGS = ["kv-cache-inference", "flashattention-explained"];
const RIGHT = "It depends.\nSource: kv-cache-inference";
const WRONG = "It depends.\nSource: flashattention-explained";

/** One run: design, question, wording, sample, whether it cites right, whether it found the post. */
function run(design: DesignId, q: string, wording: string, sample: number, right: boolean, found = right) {
  const r = makeRecord({ design, question_id: q, answer: right ? RIGHT : WRONG, found }) as OnePostAnswer;
  return {
    ...r,
    ...(wording !== "default" ? { wording } : {}),
    ...(sample !== 0 ? { sample } : {}),
  } as OnePostAnswer;
}

/** `pattern[q][s]`: 1 right, 0 wrong, for questions q1.. and samples 0.. */
function runs(design: DesignId, wording: string, pattern: number[][]) {
  return pattern.flatMap((samples, q) => samples.map((v, s) => run(design, `q${q + 1}`, wording, s, v === 1)));
}

test("per design and wording: the mean with its interval, pass@k and pass^k over k = 1..K", () => {
  // q1 3/3, q2 1/3, q3 0/3: mean (1 + 1/3 + 0)/3 = 4/9.
  const records = runs("workflow", "default", [
    [1, 1, 1],
    [1, 0, 0],
    [0, 0, 0],
  ]);
  const [row] = repeatRows(records, SLUGS);
  assert.equal(row!.questions, 3);
  assert.equal(row!.samples, 3);
  assert.ok(Math.abs(row!.cites_right.mean - 4 / 9) < 1e-12);
  assert.ok(row!.cites_right.low <= 4 / 9 && row!.cites_right.high >= 4 / 9);
  // pass@1 = 4/9; pass@2: q1 1, q2 1 - C(2,2)/C(3,2) = 2/3, q3 0: 5/9; pass@3: (1 + 1 + 0)/3.
  const expectedAt = [4 / 9, 5 / 9, 2 / 3];
  // pass^2: q1 1, q2 0, q3 0: 1/3; pass^3 likewise.
  const expectedHat = [4 / 9, 1 / 3, 1 / 3];
  for (const [i, v] of row!.pass_at_k.entries()) assert.ok(Math.abs(v - expectedAt[i]!) < 1e-12, `pass@${i + 1} ${v}`);
  for (const [i, v] of row!.pass_hat_k.entries())
    assert.ok(Math.abs(v - expectedHat[i]!) < 1e-12, `pass^${i + 1} ${v}`);
});

test("the workflow against the best study agent: per-question differences, the signed-rank test, conditions won", () => {
  const records = [
    ...runs("workflow", "default", [
      [1, 1],
      [1, 1],
      [1, 0],
      [0, 0],
    ]),
    ...runs("agent", "default", [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ]),
    // The best agent: 2 of 8 right.
    ...runs("agent-forced", "default", [
      [1, 0],
      [0, 0],
      [0, 1],
      [0, 0],
    ]),
  ];
  const [row] = pairedRateRows(records, SLUGS);
  assert.equal(row!.agent, "agent-forced");
  assert.equal(row!.questions, 4);
  // Differences 0.5, 1, 0, 0: mean 0.375; nonzero 0.5 and 1, both positive: W+ = 3, p = 2/4 = 0.5.
  assert.equal(row!.difference.mean, 0.375);
  assert.deepEqual(row!.test, { n: 2, wPlus: 3, p: 0.5 });
  // Sample 0: workflow 3 right, agent 1; sample 1: workflow 2, agent 1. Ahead in both.
  assert.deepEqual([row!.conditions, row!.workflow_ahead], [2, 2]);
});

test("the sensitivity table: each wording's rate, the spread and the questions that flip", () => {
  const records = [
    ...runs("agent", "default", [[1], [1], [0], [0]]),
    ...runs("agent", "terse", [[1], [0], [1], [0]]),
    ...runs("workflow", "default", [[1], [1], [1], [1]]),
  ];
  const rows = sensitivityRows(records, SLUGS);
  assert.equal(rows.length, 1, "the workflow ran one wording: no row");
  assert.deepEqual(rows[0], {
    model: "tiny.gguf",
    design: "agent",
    rates: [
      { wording: "default", rate: 0.5 },
      { wording: "terse", rate: 0.5 },
    ],
    spread: 0,
    flips: ["q2", "q3"],
  });
});
