// The default context against the longest prompts the study's designs can send with the default blog, counted
// with Qwen2.5's own tokenizer and template (the tiny model carries both).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { loadCorpus, loadQuestions } from "../../src/corpus/index.ts";
import { MAX_TURNS, STUDY_DESIGNS } from "../../src/designs/index.ts";
import { DEFAULT_CONTEXT_SIZE, loadModel } from "../../src/llm/index.ts";
import { pyGrouped } from "../../src/python/index.ts";
import { studyContextBounds } from "../../scripts/context-bound/parts.ts";
import { STUDY_MAX_NEW_TOKENS } from "../../src/runs/index.ts";
import { openIndex } from "../../src/search/index.ts";
import { repoRoot } from "../helpers/run-cli.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

test("the docs state the longest prompt the study's designs can send with the default blog, and the default context", async () => {
  const corpus = await loadCorpus(path.join(repoRoot, "content", "posts"));
  const files = readdirSync(path.join(repoRoot, "questions")).filter((f) => f.endsWith(".jsonl"));
  const questions = (await Promise.all(files.map((f) => loadQuestions(path.join(repoRoot, "questions", f), corpus))))
    .flat()
    .map((q) => q.question);
  const index = await openIndex(corpus, {
    retriever: "bm25",
    embeddingModel: "",
    dtype: "fp32",
    cacheDir: testCacheDir,
  });
  const model = await loadModel(await tinyModelPath(), { cacheDir: testCacheDir, gpu: false, vocabOnly: true });
  try {
    const bounds = await studyContextBounds(
      model,
      index,
      { questions },
      { maxTurns: MAX_TURNS, maxNewTokens: STUDY_MAX_NEW_TOKENS },
    );
    // The default is Qwen2.5's trained length, not the bound: a run past it is counted apart, never answered.
    assert.equal(DEFAULT_CONTEXT_SIZE, 32768);
    const needed = Math.max(...STUDY_DESIGNS.map((d) => bounds[d].contextNeeded));
    // docs/known-differences.md states the longest last prompt, as the script prints it.
    const longest = Math.max(...STUDY_DESIGNS.map((d) => bounds[d].lastPrompt));
    const page = readFileSync(path.join(repoRoot, "docs/known-differences.md"), "utf8").replace(/\s+/g, " ");
    assert.ok(
      page.includes(`${pyGrouped(longest)} tokens`),
      `known-differences.md states ${pyGrouped(longest)} tokens`,
    );
    assert.ok(page.includes(`${pyGrouped(needed)} with its reply's room`), `it states ${pyGrouped(needed)}`);
    assert.ok(
      page.includes(`default ${pyGrouped(DEFAULT_CONTEXT_SIZE)} tokens`),
      "known-differences.md states the default",
    );
  } finally {
    await model.dispose();
  }
});
