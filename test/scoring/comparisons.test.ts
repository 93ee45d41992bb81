// compareRuns on hand-built logs: which pairs are compared, in what order, on which questions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareRuns, formatP, formatProportion } from "../../src/scoring/comparisons.ts";
import { wilson } from "../../src/scoring/statistics.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const SLUGS = ["kv-cache-inference", "flashattention-explained"];
const IDS = ["q01", "q02", "q03", "q04", "q05", "q06", "q07", "q08", "q09", "q10"];
const RIGHT = "Because.\nSource: kv-cache-inference";
const WRONG = "Because.\nSource: flashattention-explained";

function log() {
  return [
    // small: workflow right on q01-q08 and found everywhere; the agent right on q01 and q09, found nowhere.
    ...IDS.map((id, i) =>
      makeRecord({ model: "small", design: "workflow", question_id: id, answer: i < 8 ? RIGHT : WRONG, found: true }),
    ),
    ...IDS.map((id) =>
      makeRecord({
        model: "small",
        design: "agent",
        question_id: id,
        answer: id === "q01" || id === "q09" ? RIGHT : WRONG,
      }),
    ),
    // big: workflow only, right everywhere; a several-post line is not strictly right.
    ...IDS.map((id) =>
      makeRecord({
        model: "big",
        design: "workflow",
        question_id: id,
        answer: id === "q10" ? "Source: kv-cache-inference, flashattention-explained" : RIGHT,
        found: true,
      }),
    ),
  ];
}

test("each agent design against the workflow, then each design across models", () => {
  const comparisons = compareRuns(log(), SLUGS);
  assert.deepEqual(
    comparisons.map((c) => [c.across, c.measure, c.a.model, c.a.design, c.b.model, c.b.design]),
    [
      ["designs", "found", "small", "workflow", "small", "agent"],
      ["designs", "cites_right", "small", "workflow", "small", "agent"],
      ["models", "found", "small", "workflow", "big", "workflow"],
      ["models", "cites_right", "small", "workflow", "big", "workflow"],
    ],
  );
  const [found, right, modelsFound, modelsRight] = comparisons;
  // found: 10 vs 0, all discordant one way: 2 / 2^10.
  assert.equal(found!.p, 0.001953125);
  assert.deepEqual(found!.a_only, IDS);
  assert.deepEqual(found!.b_only, []);
  // cites right: 8 vs 2, a only on q02-q08, b only on q09: 2 * 9 / 2^8 (see statistics.test.ts).
  assert.equal(right!.p, 0.0703125);
  assert.deepEqual(right!.b_only, ["q09"]);
  assert.deepEqual({ ...right!.a }, { model: "small", design: "workflow", ...wilson(8, 10) });
  // Across models: found is the same everywhere (p = 1); big is right on q01-q09, small on q01-q08.
  assert.equal(modelsFound!.p, 1);
  assert.deepEqual(modelsRight!.b_only, ["q09"]);
  assert.deepEqual(modelsRight!.a_only, []);
  assert.equal(modelsRight!.b.k, 9);
});

test("an incomplete run is compared on the questions both sides answered", () => {
  const records = log().filter((r) => !(r.design === "agent" && r.question_id === "q10"));
  const right = compareRuns(records, SLUGS).find((c) => c.across === "designs" && c.measure === "cites_right")!;
  assert.equal(right.a.n, 9);
  assert.equal(right.b.n, 9);
  assert.deepEqual(right.unpaired, ["q10"]);
});

test("formatting", () => {
  assert.equal(formatP(0.0703125), "0.070");
  assert.equal(formatP(0.0001234), "1.2e-4");
  assert.equal(formatProportion(wilson(23, 30)), "23/30 (77%, 59-88%)");
  assert.equal(formatProportion(wilson(0, 0)), "0/0");
});
