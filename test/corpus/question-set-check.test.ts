// checkQuestionSet, the decision behind `questions check`: problems sorted by line, or the report it prints.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { checkQuestionSet, loadCorpus } from "../../src/corpus/index.ts";
import { bm25Terms } from "../../src/search/index.ts";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/blog");
const corpus = await loadCorpus(path.join(fixtures, "posts"));
const options = { file: "q.jsonl", content: "posts", terms: bm25Terms };
const fixtureQuestions = readFileSync(path.join(fixtures, "questions.jsonl"), "utf8");

test("the fixture questions pass: the summary names the file, the blog and the counts; overlaps only when asked", () => {
  const check = checkQuestionSet(fixtureQuestions, corpus, options);
  assert.ok(check.ok);
  const questions = fixtureQuestions.trim().split("\n").length;
  assert.match(
    check.report[0]!,
    new RegExp(
      `^q\\.jsonl: ${questions} questions about \\d+ posts, all found in posts \\(${corpus.posts.length} posts, ${corpus.sections.length} sections\\)$`,
    ),
  );
  assert.ok(check.report.includes("weak facts: none flagged, none cleared"), check.report.join("\n"));
  assert.equal(check.overlaps, undefined);
  const withOverlaps = checkQuestionSet(fixtureQuestions, corpus, {
    ...options,
    overlapThreshold: 0.18,
  });
  assert.ok(withOverlaps.ok);
  assert.match(withOverlaps.overlaps!, /^q\.jsonl: answer overlap \(threshold 0\.18\): /);
});

test("problems come back by line, from parsing and from the blog alike, with no report", () => {
  const lines = [
    JSON.stringify({ id: "a", question: "Where?", post: "no-such-post", heading: "H" }),
    "not json",
    JSON.stringify({ id: "a", question: "Again?", post: "kitchen-sink", heading: "Tables and math" }),
  ];
  const check = checkQuestionSet(`${lines.join("\n")}\n`, corpus, options);
  assert.equal(check.ok, false);
  if (check.ok) return;
  const byLine = check.problems.map((p) => p.line);
  assert.deepEqual(
    byLine,
    [...byLine].sort((a, b) => (a ?? 0) - (b ?? 0)),
  );
  assert.ok(byLine.includes(1) && byLine.includes(2) && byLine.includes(3), JSON.stringify(check.problems));
});
