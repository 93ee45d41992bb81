// The project's question sets against the real blog: each passes the check, has its shape, and the default set
// sits where it was calibrated: BM25 finds its post in the top 3 for 20 to 26 of 30, and it is less lexical than
// named.jsonl, the first set, whose questions name their post's topic.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  isTwoPost,
  loadCorpus,
  parseQuestions,
  questionPosts,
  type Corpus,
  type Question,
} from "../../src/corpus/index.ts";
import { checkQuestions } from "../../src/corpus/questions.ts";
import { evaluateSearch, openIndex, questionStats } from "../../src/search/index.ts";
import { repoRoot } from "../helpers/run-cli.ts";

const SETS = ["questions.jsonl", "named.jsonl", "two-post.jsonl"] as const;
let corpus: Corpus | undefined;
const blog = async () => (corpus ??= await loadCorpus(path.join(repoRoot, "content/posts")));

async function load(name: string): Promise<Question[]> {
  const file = path.join(repoRoot, "questions", name);
  const { questions, problems } = parseQuestions(file, readFileSync(file, "utf8"));
  assert.deepEqual([...problems, ...checkQuestions(file, questions, await blog())], [], name);
  return questions.map((q) => q.question);
}

test("every question set passes the check and has its shape", async () => {
  const [study, named, twoPost] = await Promise.all(SETS.map(load));
  for (const [name, set] of [
    ["questions.jsonl", study!],
    ["named.jsonl", named!],
  ] as const) {
    assert.equal(set.length, 30, name);
    assert.ok(
      set.every((q) => !isTwoPost(q)),
      name,
    );
    assert.equal(new Set(set.flatMap(questionPosts)).size, 10, name);
  }
  assert.equal(twoPost!.length, 20);
  assert.ok(twoPost!.every(isTwoPost));
  assert.ok(new Set(twoPost!.flatMap(questionPosts)).size >= 10);
});

test("the default set is calibrated: BM25 top 3 for 20 to 26 of 30, first for fewer, less lexical than named.jsonl", async (t) => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), "blogqa-sets-"));
  t.after(() => rmSync(cacheDir, { recursive: true, force: true }));
  const index = await openIndex(await blog(), { retriever: "bm25", embeddingModel: "unused", dtype: "fp32", cacheDir });
  const study = await load("questions.jsonl");
  const score = await evaluateSearch(index, study);
  assert.ok(score.found_at_3 >= 20 && score.found_at_3 <= 26, `found_at_3 ${score.found_at_3}`);
  assert.ok(score.found_at_1 < score.found_at_3, `found_at_1 ${score.found_at_1}`);
  const [ours, named] = [
    questionStats(await blog(), study).total,
    questionStats(await blog(), await load("named.jsonl")).total,
  ];
  assert.ok(ours.in_section < named.in_section, `in section: ${ours.in_section} against ${named.in_section}`);
  assert.ok(ours.in_title < named.in_title, `in title: ${ours.in_title} against ${named.in_title}`);
  assert.ok(
    ours.slug_terms_any < named.slug_terms_any,
    `slug words: ${ours.slug_terms_any} against ${named.slug_terms_any}`,
  );
});

test("every shipped question carries two to four key facts, each stated in its gold section", async () => {
  for (const name of SETS) {
    const set = await load(name);
    const counts = set.map((q) => q.facts?.length ?? 0);
    assert.ok(
      counts.every((n) => n >= 2 && n <= 4),
      `${name}: ${counts}`,
    );
  }
});
