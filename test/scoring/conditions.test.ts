// A log's (wording, sample) conditions, and the paired tests reading one run per question from the first of them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareRuns } from "../../src/scoring/comparisons.ts";
import { conditionsOf, firstCondition } from "../../src/scoring/conditions.ts";
import { comparisonTables } from "../../src/report/comparisons-text.ts";
import { modelLabels } from "../../src/report/model-labels.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const SLUGS = ["kv-cache-inference", "flashattention-explained"];
const RIGHT = "Because.\nSource: kv-cache-inference";
const WRONG = "Because.\nSource: flashattention-explained";
const IDS = ["q01", "q02", "q03", "q04"];

test("conditions are wordings in first-seen order, samples ascending; an old line is the default wording, sample 0", () => {
  const records = [
    { ...makeRecord({ question_id: "q01" }), wording: "terse", sample: 1 },
    { ...makeRecord({ question_id: "q01" }), wording: "terse", sample: 0 },
    makeRecord({ question_id: "q01" }),
    { ...makeRecord({ question_id: "q02" }), wording: "terse", sample: 1 },
  ];
  assert.deepEqual(conditionsOf(records), [
    { wording: "terse", sample: 0 },
    { wording: "terse", sample: 1 },
    { wording: "default", sample: 0 },
  ]);
  const first = firstCondition(records);
  assert.deepEqual(first.condition, { wording: "terse", sample: 0, of: 3 });
  assert.deepEqual(first.runs, [records[1]]);
  assert.equal(
    firstCondition([makeRecord({ question_id: "q01" }), makeRecord({ question_id: "q02" })]).condition,
    undefined,
  );
});

test("with two samples, McNemar pairs sample 0's runs, not whichever sample was logged last, and says so", () => {
  // sample 0: the workflow right on all four, the agent on none; sample 1 the other way round.
  const records = [0, 1].flatMap((sample) =>
    IDS.flatMap((id) => [
      { ...makeRecord({ design: "workflow", question_id: id, answer: sample === 0 ? RIGHT : WRONG }), sample },
      { ...makeRecord({ design: "agent", question_id: id, answer: sample === 0 ? WRONG : RIGHT }), sample },
    ]),
  );
  const cites = compareRuns(records, SLUGS).find((c) => c.measure === "cites_right")!;
  assert.deepEqual([cites.a.k, cites.a.n, cites.b.k, cites.b.n], [4, 4, 0, 4]);
  assert.deepEqual(cites.condition, { wording: "default", sample: 0, of: 2 });
  const label = modelLabels(records.map((r) => r.model));
  const [table] = comparisonTables(compareRuns(records, SLUGS), label);
  assert.match(table!.title, /\(wording "default", sample 0: one of the log's 2 wording and sample conditions/);
  // A log of one condition keeps its titles as they were.
  const single = comparisonTables(
    compareRuns(
      records.filter((r) => r.sample === 0),
      SLUGS,
    ),
    label,
  );
  assert.doesNotMatch(single[0]!.title, /conditions/);
});
