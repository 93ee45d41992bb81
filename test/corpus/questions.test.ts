// questions check: each way a questions file can be wrong is reported with its line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  loadCorpus,
  loadQuestions,
  parseQuestions,
  questionShapeWarning,
  type Corpus,
} from "../../src/corpus/index.ts";
import { checkQuestions } from "../../src/corpus/questions.ts";
import { describeQuestionShape } from "../../src/corpus/question-shape.ts";
import { factSources } from "../../src/corpus/fact-sources.ts";
import type { InputProblem } from "../../src/corpus/types.ts";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/blog");
const goodLines = readFileSync(path.join(fixtures, "questions.jsonl"), "utf8").trimEnd().split("\n");
let corpus: Corpus | undefined;

async function problemsFor(lines: readonly string[]): Promise<InputProblem[]> {
  corpus ??= await loadCorpus(path.join(fixtures, "posts"));
  const { questions, problems } = parseQuestions("q.jsonl", `${lines.join("\n")}\n`);
  return [...problems, ...checkQuestions("q.jsonl", questions, corpus)];
}

const replaceLine = (n: number, text: string) => goodLines.map((line, i) => (i === n - 1 ? text : line));
const only = (problems: InputProblem[]) => {
  assert.equal(problems.length, 1, JSON.stringify(problems));
  return problems[0]!;
};

test("the fixture questions pass, and blank lines are allowed", async () => {
  assert.deepEqual(await problemsFor(goodLines), []);
  assert.deepEqual(await problemsFor(["", ...goodLines, ""]), []);
});

test("a line that is not valid JSON, or not an object, is named", async () => {
  const broken = only((await problemsFor(replaceLine(4, '{"id": "f4", "question": '))).filter((p) => p.line === 4));
  assert.equal(broken.file, "q.jsonl");
  assert.match(broken.message, /not valid JSON/);
  const array = (await problemsFor(replaceLine(2, "[1, 2]"))).filter((p) => p.line === 2);
  assert.match(only(array).message, /not a JSON object/);
});

test("a missing or empty field is named with its line", async () => {
  const problems = await problemsFor(
    replaceLine(5, '{"id": "f5", "question": "Why?", "post": "softmax-basics", "heading": ""}'),
  );
  const missing = problems.find((p) => p.line === 5);
  assert.ok(missing);
  assert.match(missing.message, /missing field "heading"/);
  const two = (await problemsFor(replaceLine(5, '{"id": "f5", "post": 3, "heading": "x"}'))).find((p) => p.line === 5);
  assert.match(two?.message ?? "", /missing field "question", "post"/);
});

test("a repeated id is named at the repeat, pointing back to the first use", async () => {
  const repeat = only(await problemsFor(replaceLine(6, goodLines[5]!.replace('"f6"', '"f2"'))));
  assert.equal(repeat.line, 6);
  assert.match(repeat.message, /id "f2" repeats \(first used on line 2\)/);
});

test("a post or heading not in the corpus is named, with a hint for a heading that differs only in case", async () => {
  const post = only(
    await problemsFor(goodLines.map((l) => l.replace('"vector-search"', '"vector-searching"'))).then((ps) =>
      ps.filter((p) => p.line === 7),
    ),
  );
  assert.match(post.message, /post "vector-searching" is not in the corpus/);
  const heading = only(
    await problemsFor(
      replaceLine(
        8,
        goodLines[7]!.replace("Approximate nearest neighbour indexes", "approximate nearest neighbour indexes"),
      ),
    ),
  );
  assert.equal(heading.line, 8);
  assert.match(
    heading.message,
    /heading "approximate nearest neighbour indexes" is not a section of post "vector-search" \(did you mean "Approximate nearest neighbour indexes"\?\)/,
  );
});

test("any number of questions per post passes; the shape is described, and warned of when not the study's", async () => {
  const fewer = goodLines.filter((_, i) => i !== 5);
  assert.deepEqual(await problemsFor(fewer), []);
  const more = [...goodLines, goodLines[0]!.replace('"f1"', '"f10"')];
  assert.deepEqual(await problemsFor(more), []);
  const asked = (lines: readonly string[]) =>
    parseQuestions("q.jsonl", lines.join("\n")).questions.map((q) => q.question);
  assert.equal(describeQuestionShape(asked(goodLines)), "questions per post: 3 on 3 posts");
  assert.equal(questionShapeWarning(asked(goodLines)), undefined);
  assert.equal(describeQuestionShape(asked(more)), "questions per post: 4 on 1 post, 3 on 2 posts");
  assert.equal(
    questionShapeWarning(asked(fewer)),
    "warning: questions per post: 3 on 2 posts, 2 on 1 post, not the study's 3 on each: fine for your own blog, " +
      "but its numbers are not comparable with the study's",
  );
  const six = readFileSync(path.join(import.meta.dirname, "../fixtures/own-blog/questions.jsonl"), "utf8");
  const ownBlog = await loadCorpus(path.join(import.meta.dirname, "../fixtures/own-blog/posts"), { note: () => {} });
  assert.equal(
    (await loadQuestions(path.join(import.meta.dirname, "../fixtures/own-blog/questions.jsonl"), ownBlog)).length,
    6,
  );
  assert.equal(describeQuestionShape(asked(six.trimEnd().split("\n"))), "questions per post: 1 on 6 posts");
});

test("an empty file is a problem", async () => {
  assert.match(only(await problemsFor([""])).message, /no questions/);
});

const TWO =
  '{"id": "t1", "question": "How do both?", "posts": ["softmax-basics", "vector-search"], "headings": ["The softmax formula", "Cosine similarity"]}';

test("a two-post question passes, beside one-post questions, and needs no count per post", async () => {
  assert.deepEqual(await problemsFor([...goodLines, TWO]), []);
  const { questions } = parseQuestions("q.jsonl", TWO);
  assert.deepEqual(questions[0]?.question, {
    id: "t1",
    question: "How do both?",
    posts: ["softmax-basics", "vector-search"],
    headings: ["The softmax formula", "Cosine similarity"],
  });
  assert.deepEqual(await problemsFor([TWO, TWO.replace('"t1"', '"t2"')]), []);
});

test("a two-post question's shape, posts and headings are checked, each problem on its line", async () => {
  const problem = async (line: string) =>
    only((await problemsFor([...goodLines, line])).filter((p) => p.line === 10)).message;
  assert.match(
    await problem(TWO.replace('"posts"', '"post": "softmax-basics", "posts"')),
    /has both "post"\/"heading" \(one post\) and "posts"\/"headings"/,
  );
  assert.match(
    await problem(TWO.replace('["softmax-basics", "vector-search"]', '["softmax-basics"]')),
    /field "posts" must be a list of two non-empty strings/,
  );
  assert.match(
    await problem(TWO.replace('["The softmax formula", "Cosine similarity"]', '"Cosine similarity"')),
    /field "headings" must be a list/,
  );
  assert.match(await problem(TWO.replace('"vector-search"', '"softmax-basics"')), /names "softmax-basics" twice/);
  assert.match(
    await problem(TWO.replace('"vector-search"', '"no-such-post"')),
    /post "no-such-post" is not in the corpus/,
  );
  assert.match(
    await problem(TWO.replace('"Cosine similarity"', '"cosine similarity"')),
    /heading "cosine similarity" is not a section of post "vector-search" \(did you mean "Cosine similarity"\?\)/,
  );
  assert.match(await problem(TWO.replace('"question": "How do both?", ', "")), /missing field "question"/);
});

test("optional details (one per post) and facts (each a list of phrasings) are read, and checked", async () => {
  const withBoth = JSON.stringify({
    ...JSON.parse(TWO),
    details: ["the formula", "the metric"],
    facts: [["exponentiated", "exp"], ["cosine"]],
  });
  assert.deepEqual(await problemsFor([withBoth]), []);
  const { questions } = parseQuestions("q.jsonl", withBoth);
  assert.deepEqual(questions[0]?.question, {
    ...JSON.parse(TWO),
    details: ["the formula", "the metric"],
    facts: [["exponentiated", "exp"], ["cosine"]],
  });
  const problem = async (change: Record<string, unknown>) =>
    only(await problemsFor([JSON.stringify({ ...JSON.parse(TWO), ...change })])).message;
  assert.equal(
    await problem({ details: ["only one"] }),
    'field "details" has 1 entry for 2 posts: give one per post, in the order of "posts"',
  );
  assert.equal(await problem({ details: "both" }), 'field details: expected an array, got a string ("both")');
  assert.equal(await problem({ facts: ["exp"] }), 'field facts[0]: expected an array, got a string ("exp")');
  assert.equal(await problem({ facts: [["exp", 3]] }), "field facts[0][1]: expected a string, got the number 3");
  // A one-post question may list facts too.
  const onePost = goodLines[0]!.replace(/}$/, ', "facts": [["prefill"]]}');
  assert.deepEqual(parseQuestions("q.jsonl", onePost).questions[0]?.question.facts, [["prefill"]]);
});

test("each fact must be stated in a gold section (either one, for two posts); a fact in neither is named", async () => {
  const withFacts = (facts: unknown) => JSON.stringify({ ...JSON.parse(TWO), facts });
  // "dot product" is in the second post's section only, "divided by the sum" in the first's only.
  assert.deepEqual(await problemsFor([withFacts([["divided by the sum"], ["Dot product."]])]), []);
  assert.deepEqual(await problemsFor([withFacts([["cosine"], ["a running max", "online softmax"]])]), [
    {
      file: "q.jsonl",
      line: 1,
      message:
        'fact 2 ("a running max" / "online softmax") is not in the gold section "The softmax formula" of ' +
        '"softmax-basics" or "Cosine similarity" of "vector-search"',
    },
  ]);
  const onePost = goodLines.map((line, i) =>
    i === 1 ? line.replace(/}$/, ', "facts": [["column b"], ["venn"]]}') : line,
  );
  assert.deepEqual(await problemsFor(onePost), [
    {
      file: "q.jsonl",
      line: 2,
      message: 'fact 2 ("venn") is not in the gold section "Tables and math" of "kitchen-sink"',
    },
  ]);
});

test("factSources says which gold section states each fact", async () => {
  corpus ??= await loadCorpus(path.join(fixtures, "posts"));
  const posts = new Map(corpus.posts.map((p) => [p.slug, p]));
  const sectionOf = (slug: string, heading: string) => posts.get(slug)?.sections.find((s) => s.heading === heading);
  const question = { ...JSON.parse(TWO), facts: [["divided by the sum"], ["dot product"], ["vectors", "larger"]] };
  assert.deepEqual(
    factSources(question, sectionOf).map((s) => s.inGold),
    [[0], [1], [0, 1]],
  );
});

test("a question id holding a line break is refused: it would split a table row", async () => {
  const line = JSON.stringify({
    id: "q1\nq2",
    question: "Why?",
    post: "softmax-basics",
    heading: "The softmax formula",
  });
  const problems = await problemsFor([line]);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!.message, /^field id: must not hold a line break or other control character$/);
});
