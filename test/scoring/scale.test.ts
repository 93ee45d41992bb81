// The scale table from a hand-made answer set: two sizes, three designs, ten questions, every figure worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { scaleTable, type ModelSize } from "../../src/scoring/index.ts";
import type { AnswerRecord } from "../../src/runs/index.ts";
import type { DesignId } from "../../src/designs/index.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const SLUGS = ["kv-cache-inference", "agents"];
const RIGHT = "It is so.\nSource: kv-cache-inference";
const WRONG = "It is so.\nSource: agents";
const questions = Array.from({ length: 10 }, (_, i) => `q${String(i + 1).padStart(2, "0")}`);

/** A design's ten runs: right on the questions numbered in `right`, each reading `tokens`. */
function runs(model: string, design: DesignId, right: readonly number[], tokens: number): AnswerRecord[] {
  return questions.map((q, i) =>
    makeRecord({ model, design, question_id: q, answer: right.includes(i + 1) ? RIGHT : WRONG, tokens_read: tokens }),
  );
}

const records = [
  // 1B: the workflow right on 1-6; the agent on 1; the forced agent on 1, 2 and 7.
  ...runs("small.gguf", "workflow", [1, 2, 3, 4, 5, 6], 400),
  ...runs("small.gguf", "agent", [1], 900),
  ...runs("small.gguf", "agent-forced", [1, 2, 7], 1100),
  // 7B: the workflow right on 1-8; both agents on 1-9 (a tie: the agent, first in order, is the best).
  ...runs("big.gguf", "workflow", [1, 2, 3, 4, 5, 6, 7, 8], 420),
  ...runs("big.gguf", "agent", [1, 2, 3, 4, 5, 6, 7, 8, 9], 1500),
  ...runs("big.gguf", "agent-forced", [1, 2, 3, 4, 5, 6, 7, 8, 9], 1700),
  // A model without a size stays off the chart.
  ...runs("unsized.gguf", "workflow", [1], 100),
];
// Listed big first: the table orders by size, not by the map.
const sizes = new Map<string, ModelSize>([
  ["big.gguf", { label: "big", paramsB: 7 }],
  ["small.gguf", { label: "small", paramsB: 1 }],
]);

test("each design of each sized model: cites right (strict) with its Wilson interval, and tokens read", () => {
  const table = scaleTable(records, SLUGS, sizes)!;
  assert.deepEqual(
    table.points.map((p) => [p.label, p.params_b, p.design, `${p.cites_right.k}/${p.cites_right.n}`, p.tokens_read]),
    [
      ["small", 1, "workflow", "6/10", 400],
      ["small", 1, "agent", "1/10", 900],
      ["small", 1, "agent-forced", "3/10", 1100],
      ["big", 7, "workflow", "8/10", 420],
      ["big", 7, "agent", "9/10", 1500],
      ["big", 7, "agent-forced", "9/10", 1700],
    ],
  );
  // wilson(6, 10): 0.3127-0.8318
  const small = table.points[0]!.cites_right;
  assert.deepEqual([small.low.toFixed(4), small.high.toFixed(4)], ["0.3127", "0.8318"]);
});

test("the workflow against the best agent design at each size, with the exact McNemar p", () => {
  const { tests } = scaleTable(records, SLUGS, sizes)!;
  assert.deepEqual(
    tests.map((t) => [t.label, t.agent_design, t.workflow.k, t.agent.k, t.workflow_only, t.agent_only, t.p]),
    [
      // 1B: best agent is the forced one (3 of 10); the workflow alone on 3, 4, 5, 6, the agent alone on 7:
      // p = 2 (C(5,0) + C(5,1)) / 2^5 = 0.375
      ["small", "agent-forced", 6, 3, 4, 1, 0.375],
      // 7B: a tie at 9, the agent first; only q09 differs, for the agent: p = min(1, 2 / 2) = 1
      ["big", "agent", 8, 9, 0, 1, 1],
    ],
  );
});

test("fewer than two sized models: no scale table", () => {
  assert.equal(scaleTable(records, SLUGS, new Map([["big.gguf", { label: "big", paramsB: 7 }]])), undefined);
  assert.equal(scaleTable(records, SLUGS, new Map()), undefined);
});
