// The comparisons' reading note is computed from the run: its question counts and the exact test's smallest significant flip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareRuns } from "../../src/scoring/comparisons.ts";
import { fewestSignificantFlips, mcnemarExact } from "../../src/scoring/statistics.ts";
import { comparisonsMarkdown, comparisonsNote } from "../../src/report/comparisons-text.ts";
import { modelLabels } from "../../src/report/model-labels.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const RIGHT = "Because.\nSource: kv-cache-inference";

function run(questions: number) {
  const ids = Array.from({ length: questions }, (_, i) => `q${String(i + 1).padStart(2, "0")}`);
  return [
    ...ids.map((id) => makeRecord({ model: "m", design: "workflow", question_id: id, answer: RIGHT, found: true })),
    ...ids.map((id) => makeRecord({ model: "m", design: "agent", question_id: id, answer: "No." })),
  ];
}

test("fewestSignificantFlips is the smallest all-one-way count under the threshold", () => {
  assert.equal(fewestSignificantFlips(0.05), 6);
  assert.ok(mcnemarExact(0, 6) < 0.05 && mcnemarExact(0, 5) >= 0.05);
  assert.equal(fewestSignificantFlips(0.01), 8);
});

test("the note names the run's own number of questions, not the study's 30", () => {
  const ten = comparisonsNote(compareRuns(run(10), ["kv-cache-inference"]));
  assert.match(ten, /With 10 paired questions, p < 0\.05 needs at least 6 of the 10 questions \(60 points\) flipping/);
  assert.doesNotMatch(ten, /30/);
  const thirty = comparisonsMarkdown(
    compareRuns(run(30), ["kv-cache-inference"]),
    modelLabels(run(30).map((r) => r.model)),
  );
  assert.match(thirty, /With 30 paired questions, p < 0\.05 needs at least 6 of the 30 questions \(20 points\)/);
});

test("with exactly 6 questions every one must flip, and no split is possible", () => {
  const six = comparisonsNote(compareRuns(run(6), ["kv-cache-inference"]));
  assert.match(six, /With 6 paired questions, p < 0\.05 needs all 6 to flip, all the same way; read p/);
  assert.doesNotMatch(six, /of the 6|when they split/);
});

test("too few questions for any significant difference says so", () => {
  const note = comparisonsNote(compareRuns(run(4), ["kv-cache-inference"]));
  assert.match(note, /With 4 paired questions, no difference can reach p < 0\.05: that takes at least 6 questions/);
});

test("comparisons over different counts give the range", () => {
  const records = [...run(12), ...run(8).map((r) => ({ ...r, model: "other" }))];
  const note = comparisonsNote(compareRuns(records, ["kv-cache-inference"]));
  assert.match(note, /With 8 to 12 paired questions, p < 0\.05 needs at least 6 flipping/);
});
