// The two-post scorer on hand-written answers, one per class, and the tables of a log mixing both question shapes.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  classifyTwoPostSource,
  citesRightExact,
  compareRuns,
  foundAll,
  strictRows,
  studyRows,
  twoPostRows,
  type TwoPostClass,
} from "../../src/scoring/index.ts";
import { foundAny, TWO_POST_CLASSES } from "../../src/scoring/two-post.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const SLUGS = ["kv-cache-inference", "serving-and-batching", "flashattention-explained", "attention-and-softmax"];
const GOLD = ["kv-cache-inference", "serving-and-batching"];

const cases: { answer: string; kind: TwoPostClass; posts: string[] }[] = [
  { answer: "Reuse the cache.", kind: "no-source", posts: [] },
  { answer: "Both.\nSource: kv-cache-inference, serving-and-batching", kind: "exact", posts: GOLD },
  // order and separators are free
  { answer: "Both.\nSource: serving-and-batching and kv-cache-inference.", kind: "exact", posts: GOLD },
  { answer: "Both.\nSource: serving-and-batching; kv-cache-inference; kv-cache-inference", kind: "exact", posts: GOLD },
  { answer: "One.\nSource: kv-cache-inference", kind: "subset", posts: ["kv-cache-inference"] },
  {
    answer: "All.\nSource: kv-cache-inference, serving-and-batching, attention-and-softmax",
    kind: "superset",
    posts: [...GOLD, "attention-and-softmax"],
  },
  {
    answer: "Some.\nSource: serving-and-batching, flashattention-explained",
    kind: "mixed",
    posts: ["serving-and-batching", "flashattention-explained"],
  },
  { answer: "Other.\nSource: flashattention-explained", kind: "none-of-gold", posts: ["flashattention-explained"] },
  { answer: "Made up.\nSource: <post>", kind: "none-of-gold", posts: [] },
  // the text after the LAST "Source:" decides
  {
    answer: "Source: kv-cache-inference, serving-and-batching\nSource: kv-cache-inference",
    kind: "subset",
    posts: ["kv-cache-inference"],
  },
];

for (const c of cases) {
  test(`two-post: ${JSON.stringify(c.answer)} is ${c.kind}`, () => {
    const verdict = classifyTwoPostSource(c.answer, GOLD, SLUGS);
    assert.equal(verdict.kind, c.kind);
    assert.deepEqual(verdict.posts, c.posts);
    assert.equal(citesRightExact(verdict), c.kind === "exact");
  });
}

test("every two-post class has a hand-written case", () => {
  assert.deepEqual([...new Set(cases.map((c) => c.kind))].sort(), [...TWO_POST_CLASSES].sort());
});

test("found all and found any read the posts the run's searches and reads showed", () => {
  const seen = (posts: string[]) => makeRecord({ question_id: "t01", gold_posts: GOLD, seen_posts: posts });
  assert.deepEqual([foundAll(seen(GOLD)), foundAny(seen(GOLD))], [true, true]);
  assert.deepEqual(
    [foundAll(seen(["serving-and-batching", "x"])), foundAny(seen(["serving-and-batching", "x"]))],
    [false, true],
  );
  assert.deepEqual([foundAll(seen([])), foundAny(seen([]))], [false, false]);
});

test("a log mixing one-post and two-post questions gets one table per set, and comparisons within each set", () => {
  const onePost = ["q01", "q02"].flatMap((id) => [
    makeRecord({ design: "workflow", question_id: id, answer: "A.\nSource: kv-cache-inference", found: true }),
    makeRecord({ design: "agent", question_id: id, answer: "A.\nSource: <post>" }),
  ]);
  const twoPost = ["t01", "t02", "t03"].flatMap((id, i) => [
    makeRecord({
      design: "workflow",
      question_id: id,
      gold_posts: GOLD,
      answer: "A.\nSource: kv-cache-inference",
      seen_posts: ["kv-cache-inference"],
    }),
    makeRecord({
      design: "agent",
      question_id: id,
      gold_posts: GOLD,
      answer: i === 0 ? "A.\nSource: kv-cache-inference, serving-and-batching" : "A.",
      seen_posts: i === 0 ? GOLD : [],
    }),
  ]);
  const records = [...onePost, ...twoPost];
  assert.deepEqual(
    studyRows(records).map((r) => [r.design, r.n, r.found, r.cites_right]),
    [
      ["workflow", 2, 2, 2],
      ["agent", 2, 0, 0],
    ],
  );
  assert.deepEqual(
    strictRows(records, SLUGS).map((r) => [r.design, r.n, r.source_one_real, r.source_invented]),
    [
      ["workflow", 2, 2, 0],
      ["agent", 2, 0, 2],
    ],
  );
  const rows = twoPostRows(records, SLUGS);
  assert.deepEqual(
    rows.map((r) => [
      r.design,
      r.n,
      r.found_all,
      r.found_any,
      r.cites_any,
      r.cites_right,
      r.source_subset,
      r.source_exact,
      r.source_none,
    ]),
    [
      ["workflow", 3, 0, 3, 3, 0, 3, 0, 0],
      ["agent", 3, 1, 1, 1, 1, 0, 1, 2],
    ],
  );
  const comparisons = compareRuns(records, SLUGS);
  assert.deepEqual(
    comparisons.map((c) => [c.set, c.measure, c.a.k, c.b.k, c.a.n]),
    [
      ["one-post", "found", 2, 0, 2],
      ["one-post", "cites_right", 2, 0, 2],
      ["two-post", "found", 0, 1, 3],
      ["two-post", "cites_right", 0, 1, 3],
    ],
  );
  // within a set, questions pair by id as in the study's comparisons
  assert.deepEqual(comparisons.find((c) => c.set === "two-post" && c.measure === "cites_right")?.b_only, ["t01"]);
});
