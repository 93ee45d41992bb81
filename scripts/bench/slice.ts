// What every measured run of the bench reads (the blog, its questions, the study's search index over them), the
// slices of it the tables run, and the untimed warm-up each process does before its first measured run.
import path from "node:path";
import { loadCorpus, loadQuestions, type Corpus, type Question } from "../../src/corpus/index.ts";
import { STUDY_DESIGNS, type BlogIndex } from "../../src/designs/index.ts";
import type { LoadedModel } from "../../src/llm/index.ts";
import { openIndex } from "../../src/search/index.ts";
import { ensureTinyEmbedder } from "../../src/test-models/index.ts";
import type { Slice } from "./run-mode.ts";

/** Where the inputs are read from: the same in the bench and in the child processes it starts. */
export interface BenchInputs {
  readonly content: string;
  readonly questionsFile: string;
  readonly retriever: "hybrid" | "bm25";
  readonly cacheDir: string;
}

export interface OpenedInputs {
  readonly corpus: Corpus;
  /** Every question of the file, in its order: a slice takes the first N. */
  readonly questions: readonly Question[];
  readonly index: BlogIndex;
}

export async function openBenchInputs(inputs: BenchInputs): Promise<OpenedInputs> {
  const corpus = await loadCorpus(inputs.content);
  const questions = await loadQuestions(inputs.questionsFile, corpus);
  const tinyEmbedder = path.join(inputs.cacheDir, "tiny", "tiny-embedder");
  if (inputs.retriever === "hybrid") ensureTinyEmbedder(tinyEmbedder, { seed: 42, shape: "tiny" });
  const index = await openIndex(corpus, {
    retriever: inputs.retriever,
    embeddingModel: tinyEmbedder,
    dtype: "fp32",
    cacheDir: inputs.cacheDir,
  });
  return { corpus, questions, index };
}

/** The study's four designs on the first `count` questions. */
export function studySlice(questions: readonly Question[], count: number, maxNewTokens: number): Slice {
  return { designs: STUDY_DESIGNS, questions: questions.slice(0, count), maxNewTokens };
}

/** Untimed: the first pass over a memory-mapped model pages its weights in, and a process's first call sets up. */
export async function warmUp(load: () => Promise<LoadedModel>): Promise<void> {
  const model = await load();
  try {
    const [runtime] = await model.openRuntimes(1, { reuseCache: false });
    await runtime!.generate({ messages: [{ role: "user", content: "warm up" }], maxTokens: 2 });
  } finally {
    await model.dispose();
  }
}
