// The default context against the longest prompts the study's designs can send with the default blog, counted
// with Qwen2.5's own tokenizer and template (the tiny model carries both).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { loadCorpus, loadQuestions } from "../../src/corpus/index.ts";
import { MAX_TURNS, STUDY_DESIGNS, studyContextBounds } from "../../src/designs/index.ts";
import { DEFAULT_CONTEXT_SIZE, loadModel } from "../../src/llm/index.ts";
import { pyGrouped } from "../../src/python/index.ts";
import { STUDY_MAX_NEW_TOKENS } from "../../src/runs/index.ts";
import { openIndex } from "../../src/search/index.ts";
import { repoRoot } from "../helpers/run-cli.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

test("the default context is the size the study's designs need with the default blog, rounded up to 4096", async () => {
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
    const needed = Math.max(...STUDY_DESIGNS.map((d) => bounds[d].contextNeeded));
    assert.equal(DEFAULT_CONTEXT_SIZE, Math.ceil(needed / 4096) * 4096, `the designs need ${needed} tokens`);
    for (const design of STUDY_DESIGNS)
      assert.ok(bounds[design].contextNeeded <= DEFAULT_CONTEXT_SIZE, `${design} fits the default`);

    // docs/known-differences.md states the longest last prompt, as the script prints it.
    const longest = Math.max(...STUDY_DESIGNS.map((d) => bounds[d].lastPrompt));
    const page = readFileSync(path.join(repoRoot, "docs/known-differences.md"), "utf8").replace(/\s+/g, " ");
    assert.ok(
      page.includes(`${pyGrouped(longest)} tokens`),
      `known-differences.md states ${pyGrouped(longest)} tokens`,
    );
    assert.ok(
      page.includes(`default ${pyGrouped(DEFAULT_CONTEXT_SIZE)} tokens`),
      "known-differences.md states the default",
    );
  } finally {
    await model.dispose();
  }
});
