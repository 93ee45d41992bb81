// The answer-overlap check on the real blog and its question sets: no two-post question has a half that another
// section answers as well, and the one-post sets flag only questions a reader has looked at and cleared, each
// with the reason below. A new flag fails here: rewrite the question, or read the flagged section and, if it
// does not answer the question, add it with its reason.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadCorpus, parseQuestions, type Question } from "../../src/corpus/index.ts";
import { answerOverlaps } from "../../src/corpus/answer-overlap.ts";
import { bm25Terms } from "../../src/search/index.ts";
import { repoRoot } from "../helpers/run-cli.ts";

const corpus = await loadCorpus(path.join(repoRoot, "content/posts"));
const questions = (name: string): Question[] => {
  const file = path.join(repoRoot, "questions", name);
  return parseQuestions(file, readFileSync(file, "utf8")).questions.map((q) => q.question);
};
/** Each flagged question with its flagged sections, as `id: post#heading`. */
const flagged = (name: string) =>
  answerOverlaps(corpus.sections, questions(name), bm25Terms).flatMap((o) =>
    o.flags.map((f) => `${o.id}: ${f.section.post}#${f.section.heading}`),
  );

test("no half of a two-post question is answered as well by a section of another post", () => {
  assert.deepEqual(flagged("two-post.jsonl"), []);
});

test("the default set flags only sections read and found not to answer the question", () => {
  const reviewed: Record<string, string> = {
    // Defines softmax and its shift invariance; no running maximum, no chunks, no rescaling of a partial sum.
    "q01: attention-and-softmax#Softmax as a differentiable selection": "softmax itself, not one pass",
    // Cache growth, chain-of-thought compute and GQA; none is about recomputing attention in the backward pass.
    "q02: kv-cache-inference#Why the cache grows linearly": "no backward pass",
    "q02: chain-of-thought-prompt-chaining#Why intermediate tokens add computation": "no backward pass",
    "q02: attention-and-softmax#Grouped-query and multi-query attention": "no backward pass",
    // Uses cosine similarity as a score; says nothing of how the metrics rank normalised vectors.
    "q11: agent-memory#Retrieving by relevance, recency and importance": "names cosine only",
    // Recommends reciprocal rank fusion by name and links to the BM25 post for how it works.
    "q15: building-rag-pipelines#Retrieval": "names RRF only",
    // Search budgets and a forced final answer; nothing on how tool_choice forces the first reply to be a call.
    "q21: beyond-vector-rag#Stopping conditions and budgets": "budgets, not tool_choice",
    // A search loop whose forced last call sets tool_choice "none"; nothing on making the first reply call one tool.
    "q21: beyond-vector-rag#Retrieval as a tool call": "forbids tools, does not force one",
    // Grammar masks renormalise a distribution; nothing about drafts or rejection sampling.
    "q29: constrained-decoding-json#Token masks at sampling time": "masks, not speculation",
  };
  const flags = flagged("questions.jsonl");
  assert.deepEqual(
    flags.filter((flag) => !(flag in reviewed)),
    [],
  );
  // A cleared flag that is no longer raised is taken out, so the list stays the list of what is raised.
  assert.deepEqual(
    Object.keys(reviewed).filter((flag) => !flags.includes(flag)),
    [],
  );
});

test("the named set flags only sections read and found not to answer the question", () => {
  const reviewed = new Set([
    // Lists tool schemas among what fills a context, with their size; not how they are rendered into the prompt.
    "q19: context-engineering#What actually fills a context window",
  ]);
  const flags = flagged("named.jsonl");
  assert.deepEqual(
    flags.filter((flag) => !reviewed.has(flag)),
    [],
  );
  assert.deepEqual(
    [...reviewed].filter((flag) => !flags.includes(flag)),
    [],
  );
});
