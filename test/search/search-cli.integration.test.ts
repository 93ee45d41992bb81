// The search commands through the command line, with --retriever bm25 so no embedding model is needed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/blog");
const posts = path.join(fixtures, "posts");

test("index --json builds, then loads from the cache; stdout is one JSON object", async (t) => {
  const cache = mkdtempSync(path.join(os.tmpdir(), "blogqa-cli-"));
  t.after(() => rmSync(cache, { recursive: true, force: true }));
  const args = ["index", "--content", posts, "--retriever", "bm25", "--cache-dir", cache, "--json"];
  const first = await runCliInProcess(args);
  assert.equal(first.status, 0, first.stderr);
  const built = JSON.parse(first.stdout) as Record<string, unknown>;
  assert.deepEqual(
    { ...built, seconds: 0 },
    { posts: 3, sections: 15, embedding_model: null, retriever: "bm25", from_cache: false, seconds: 0 },
  );
  assert.equal(typeof built.seconds, "number");
  const second = JSON.parse((await runCliInProcess(args)).stdout) as Record<string, unknown>;
  assert.equal(second.from_cache, true);
});

test("search --json prints the hits; search-eval --retriever bm25 --json prints counts for that retriever only", async (t) => {
  const cache = mkdtempSync(path.join(os.tmpdir(), "blogqa-cli-"));
  t.after(() => rmSync(cache, { recursive: true, force: true }));
  const common = ["--content", posts, "--retriever", "bm25", "--cache-dir", cache, "--json"];
  const search = await runCliInProcess(["search", "cosine similarity of unit vectors", "-k", "2", ...common]);
  assert.equal(search.status, 0, search.stderr);
  const hits = JSON.parse(search.stdout) as { post: string; heading: string; snippet: string }[];
  assert.equal(hits.length, 2);
  assert.deepEqual(hits[0], {
    post: "vector-search",
    heading: "Cosine similarity",
    snippet:
      "Cosine similarity compares the angle between two embedding vectors; for unit vectors it equals the dot product.",
  });
  const evaluation = await runCliInProcess([
    "search-eval",
    "--questions",
    path.join(fixtures, "questions.jsonl"),
    ...common,
  ]);
  assert.equal(evaluation.status, 0, evaluation.stderr);
  const scores = JSON.parse(evaluation.stdout) as Record<
    string,
    { questions: number; found_at_1: number; found_at_3: number; mrr: number }
  >;
  assert.deepEqual(Object.keys(scores), ["bm25"]);
  assert.equal(scores.bm25!.questions, 9);
  assert.ok(scores.bm25!.found_at_1 <= scores.bm25!.found_at_3 && scores.bm25!.found_at_3 <= 9);
  assert.ok(scores.bm25!.found_at_1 >= 6, JSON.stringify(scores));
});

test("search-eval --help says it evaluates all three retrievers unless one is named", async () => {
  const help = await runCliInProcess(["search-eval", "--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--retriever.*\[default: all three\]/s);
});
