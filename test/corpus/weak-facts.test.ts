// The weak-fact rules of questions check: common single words, facts the question states, facts both halves state,
// facts a negated verdict states.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Corpus, Post, Question, Section } from "../../src/corpus/index.ts";
import { checkWeakFacts } from "../../src/corpus/weak-facts.ts";

// Words as terms, a trailing "s" dropped: enough stemming to show that "ranks" is found in "ranked"'s company.
const analyze = (text: string) =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w !== "the").map((w) => w.replace(/(ed|s)$/, ""));

function post(slug: string, texts: readonly string[]): Post {
  const sections: Section[] = texts.map((text, i) => ({ post: slug, heading: `H${i + 1}`, level: 2, text }));
  return {
    slug,
    title: slug,
    file: `${slug}.mdx`,
    frontmatter: {},
    sections,
    emptyHeadings: [],
    attributeProse: [],
    dropped: {},
    foldedHeadings: [],
    siteSyntax: {},
  };
}

const posts = [
  post("a", ["Memory holds the block table and the merge of ranks uses a constant of 60.", "Shared words: memory."]),
  post("b", ["Memory again, and the prefix cache, with fusion."]),
  post("c", ["Memory is everywhere; a tokenizer here."]),
  post("d", ["Nothing about the others, only a rare word: saturation and memory."]),
  post("e", ["Memory, and nothing else."]),
];
const corpus: Corpus = {
  dir: "blog",
  posts,
  sections: posts.flatMap((p) => p.sections),
  hash: "x",
  leftOut: [],
  slugRule: "file-name",
};

const one = (question: string, facts: string[][], cleared?: Question["cleared"]): Question => ({
  id: "q1",
  question,
  post: "a",
  heading: "H1",
  facts,
  ...(cleared ? { cleared } : {}),
});
const check = (q: Question) => checkWeakFacts("q.jsonl", [{ line: 3, question: q }], corpus, analyze);

test("a single word in a quarter of the posts or more is flagged, a rare one is not", () => {
  const { problems } = check(one("How are lists merged?", [["memory"], ["saturation"], ["block table"]]));
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.equal(problems[0]!.line, 3);
  assert.match(problems[0]!.message, /^fact 1 is weak, a single common word: "memory" \(in 5 of 5 posts\)/);
});

test("a phrasing made of the question's own terms is flagged, numbers included", () => {
  const { problems } = check(one("How is a tokenizer's output ranked against a constant of 60?", [["ranks"], ["60"]]));
  assert.deepEqual(
    problems.map((p) => p.message.split(";")[0]),
    [
      'fact 1 is weak, in the question itself: "ranks" (the question says "ranked")',
      'fact 2 is weak, in the question itself: "60" (the question says "60")',
    ],
  );
});

test("a phrasing both gold sections of a two-post question state is flagged; one only one of them states is not", () => {
  const q: Question = {
    id: "t1",
    question: "Which two things?",
    posts: ["a", "b"],
    headings: ["H1", "H1"],
    facts: [["block table"], ["prefix cache"]],
  };
  assert.deepEqual(check(q).problems, []);
  const messages = check({ ...q, facts: [["block table"], ["memory"]] }).problems.map((p) => p.message.split(";")[0]);
  assert.deepEqual(messages, [
    'fact 2 is weak, a single common word: "memory" (in 5 of 5 posts)',
    'fact 2 is weak, in both gold sections: "memory" (both gold sections say it)',
  ]);
});

test("a clearing with a reason keeps the fact and is listed; a clearing that matches nothing is a problem", () => {
  const reason = "The constant is what the post gives; the question only says there is one.";
  const kept = check(one("Merged with a constant of 60?", [["60"]], [{ fact: 1, rule: "in-question", reason }]));
  assert.deepEqual(kept.problems, []);
  assert.deepEqual(kept.cleared, [{ id: "q1", fact: 1, rule: "in-question", phrasings: ["60"], reason }]);
  const stale = check(one("Merged how?", [["60"]], [{ fact: 1, rule: "in-question", reason }]));
  assert.deepEqual(stale.cleared, []);
  assert.equal(stale.problems.length, 1);
  assert.match(stale.problems[0]!.message, /names fact 1 for rule in-question, which flags nothing there/);
});

test("an in-question flag names the question's words, and says when they stand apart there", () => {
  const { problems } = check(one("Which table holds the block, and where?", [["block table"], ["table holds"]]));
  assert.deepEqual(
    problems.map((p) => p.message.split(";")[0]),
    [
      'fact 1 is weak, in the question itself: "block table" (the question has its words apart: "block", "table")',
      'fact 2 is weak, in the question itself: "table holds" (the question says "table holds")',
    ],
  );
});

test("in a yes/no question, a phrasing its own negation states is flagged; one that carries its polarity is not", () => {
  const facts = [["equivalent"], ["not normalized"], ["are equivalent"], ["2 - 2a·b"], ["same order", "isn't bitwise"]];
  const messages = check(one("If vectors are normalised, does it matter which one you pick?", facts)).problems.map(
    (p) => p.message.split(";")[0],
  );
  assert.deepEqual(messages, [
    'fact 1 is weak, stated by its own negation in a yes/no question: "equivalent" ("not equivalent" states it)',
    'fact 5 is weak, stated by its own negation in a yes/no question: "same order" ("not same order" states it)',
  ]);
});

test("only a yes/no question is held to the negation rule", () => {
  const flagged = (question: string) => check(one(question, [["equivalent"]])).problems.length;
  assert.equal(flagged("Is cosine the same as dot product, and why?"), 1);
  assert.equal(flagged("Does it matter which metric ranks?"), 1);
  assert.equal(flagged("If vectors are normalised, can the metric change the order?"), 1);
  assert.equal(flagged("Why does the metric not matter?"), 0);
  assert.equal(flagged("When vectors are normalised, what does the metric change?"), 0);
  assert.equal(flagged("How do the metrics rank, and is that all?"), 0);
});

test("a negated flag is cleared like any other, with its reason", () => {
  const reason = "Names the open half's answer, whatever the verdict.";
  const kept = check(one("Is it exact?", [["equivalent"]], [{ fact: 1, rule: "negated", reason }]));
  assert.deepEqual(kept.problems, []);
  assert.deepEqual(kept.cleared, [{ id: "q1", fact: 1, rule: "negated", phrasings: ["equivalent"], reason }]);
});
