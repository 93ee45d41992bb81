// Questions checked against a blog: a typo gets the nearest real heading or post, another blog's questions one line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadCorpus, parseQuestions } from "../../src/corpus/index.ts";
import { checkQuestions } from "../../src/corpus/questions.ts";
import { editDistance, nearest } from "../../src/corpus/nearest.ts";
import path from "node:path";
import { FIXTURE_CONTENT } from "../helpers/tiny-run.ts";
import { repoRoot } from "../helpers/run-cli.ts";

const line = (id: string, post: string, heading: string) =>
  JSON.stringify({ id, question: `About ${heading}?`, post, heading });

test("editDistance and nearest: close typos only", () => {
  assert.equal(editDistance("kitten", "Sitting"), 3);
  assert.equal(nearest("Prefil and decode", ["Prefill and decode", "Batching"]), "Prefill and decode");
  assert.equal(nearest("Batching", ["Prefill and decode"]), undefined);
});

test("a mistyped heading or post is answered with the nearest real one", async () => {
  const corpus = await loadCorpus(FIXTURE_CONTENT);
  const text = [
    line("q1", "softmax-basics", "The softmax formula"),
    line("q2", "softmax-basics", "Subtracting the maximum for stabilty"),
    line("q3", "softmax-basic", "The softmax formula"),
  ].join("\n");
  const { questions } = parseQuestions("q.jsonl", text);
  const messages = checkQuestions("q.jsonl", questions, corpus).map((p) => `${p.line}: ${p.message}`);
  assert.ok(
    messages.includes(
      '2: heading "Subtracting the maximum for stabilty" is not a section of post "softmax-basics" (did you mean "Subtracting the maximum for stability"?)',
    ),
    messages.join("\n"),
  );
  assert.ok(
    messages.some(
      (m) =>
        m.startsWith('3: post "softmax-basic" is not in the corpus') && m.endsWith('(did you mean "softmax-basics"?)'),
    ),
    messages.join("\n"),
  );
});

test("questions about another blog altogether give one line naming --questions", async () => {
  const corpus = await loadCorpus(FIXTURE_CONTENT);
  const text = [line("q1", "kv-cache-inference", "Prefill"), line("q2", "flashattention-explained", "Tiling")].join(
    "\n",
  );
  const { questions } = parseQuestions("q.jsonl", text);
  const problems = checkQuestions("q.jsonl", questions, corpus);
  assert.equal(problems.length, 1);
  assert.match(
    problems[0]!.message,
    /none of these 2 questions is about a post in .*: they belong to another blog\. Give questions about this blog with --questions FILE/,
  );
});

test("a heading folded into its parent section (a #### heading) is named with the section that holds it", async () => {
  const corpus = await loadCorpus(path.join(repoRoot, "test/fixtures/mdx-shapes"));
  const { questions } = parseQuestions("q.jsonl", line("q1", "components", "A deep point"));
  assert.deepEqual(
    checkQuestions("q.jsonl", questions, corpus).map((p) => p.message),
    [
      'heading "A deep point" is not a section of post "components": it is a deeper heading, folded into section "Details" (use that heading)',
    ],
  );
});

test("a fact of 20,000 phrasings found nowhere is one short problem line, its phrasings clipped", async () => {
  const corpus = await loadCorpus(FIXTURE_CONTENT);
  const phrasings = Array.from({ length: 20_000 }, (_, i) => `zzz${i}`);
  const text = JSON.stringify({
    id: "q1",
    question: "About the softmax formula?",
    post: "softmax-basics",
    heading: "The softmax formula",
    facts: [phrasings],
  });
  const { questions } = parseQuestions("q.jsonl", text);
  const [problem] = checkQuestions("q.jsonl", questions, corpus);
  assert.ok(problem !== undefined && problem.message.length < 500, `${problem?.message.length} characters`);
  assert.match(
    problem.message,
    /^fact 1 \("zzz0" \/ "zzz1" \/ .*… \([\d,]+ more characters\)\) is not in the gold section/,
  );
});
