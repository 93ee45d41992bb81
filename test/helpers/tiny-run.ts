// A real run folder from the tiny model: the fixture blog, BM25 search, two designs, a few questions, with its manifest.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadCorpus, loadQuestions } from "../../src/corpus/index.ts";
import { openIndex } from "../../src/search/index.ts";
import { runStudy, openRunFolder } from "../../src/runs/index.ts";
import { defaultSettings } from "../../src/runs/settings.ts";
import { modelOpener } from "../../src/runs/open-model.ts";
import type { StudyRunSummary } from "../../src/runs/runner.ts";
import type { DesignId, Wording } from "../../src/designs/index.ts";
import type { WithholdMode } from "../../src/designs/withheld-index.ts";
import { DERIVED_FILES } from "../../src/report/index.ts";
import { repoRoot } from "./run-cli.ts";
import { testCacheDir, tinyModelPath } from "./tiny-model.ts";

export const FIXTURE_CONTENT = path.join(repoRoot, "test/fixtures/blog/posts");
export const FIXTURE_QUESTIONS = path.join(repoRoot, "test/fixtures/blog/questions.jsonl");

export interface TinyRunOptions {
  readonly questions?: number;
  readonly designs?: readonly DesignId[];
  readonly parallel?: number;
  readonly maxNewTokens?: number;
  /** --samples: runs of each prompt (sampling from the second on). */
  readonly samples?: number;
  /** --wordings: the wordings every design runs under. */
  readonly wordings?: readonly Wording[];
  readonly withhold?: WithholdMode;
}

/**
 * Runs the study on the tiny model into a fresh temp folder, wiring the manifest exactly as the run command does:
 * openRunFolder before runStudy, recordModel as each model loads, finish after.
 */
export async function tinyRun(
  options: TinyRunOptions = {},
): Promise<{ dir: string; model: string; summary: StudyRunSummary }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-tiny-run-"));
  const model = await tinyModelPath();
  const corpus = await loadCorpus(FIXTURE_CONTENT);
  const questions = (await loadQuestions(FIXTURE_QUESTIONS, corpus)).slice(0, options.questions ?? 2);
  const index = await openIndex(corpus, {
    retriever: "bm25",
    embeddingModel: "",
    dtype: "fp32",
    cacheDir: testCacheDir,
  });
  const designs = options.designs ?? ["workflow", "agent-forced"];
  const settings = defaultSettings({
    parallel: options.parallel ?? 2,
    maxNewTokens: options.maxNewTokens ?? 40,
    retriever: "bm25",
    gpu: false,
    ...(options.samples !== undefined ? { samples: options.samples } : {}),
    ...(options.withhold ? { withhold: options.withhold } : {}),
  });
  const folder = openRunFolder(dir, {
    inputs: {
      settings,
      selection: { models: [model], designs, limit: questions.length },
      questionsFile: FIXTURE_QUESTIONS,
      corpus,
      questionCount: questions.length,
      embedding: index.embedding,
      ...(options.wordings !== undefined ? { wordings: options.wordings } : {}),
    },
    derivedFiles: DERIVED_FILES,
    cacheDir: testCacheDir,
  });
  let summary: StudyRunSummary;
  try {
    summary = await runStudy({
      folder,
      models: [model],
      openModel: modelOpener(settings, { cacheDir: testCacheDir }),
      index,
      designs,
      ...(options.wordings !== undefined ? { wordings: options.wordings } : {}),
      questions,
      settings,
    });
    folder.finish(summary);
  } finally {
    folder.close();
  }
  return { dir, model, summary };
}
