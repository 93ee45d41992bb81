// Times the search index with a MiniLM-sized random embedder: build (embed every section), load from cache, query.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Corpus, Question } from "../../src/corpus/index.ts";
import { openIndex } from "../../src/search/index.ts";
import { ensureTinyEmbedder } from "../../src/test-models/index.ts";
import { median } from "./stats.ts";

export interface IndexFigures {
  readonly sections: number;
  /** Embedder load, BM25 build and every section embedded, from an empty cache. */
  readonly buildSeconds: number;
  /** Embedder load and both parts read from the cache. */
  readonly loadSeconds: number;
  readonly fromCache: boolean;
  /** Median of one hybrid query (top 3), over the slice's questions, after load. */
  readonly queryMs: number;
  readonly queries: number;
}

/** The MiniLM-shaped embedder folder under the cache, generated once (same seed, same bytes). */
export function ensureMiniLmEmbedder(cacheDir: string): string {
  return ensureTinyEmbedder(path.join(cacheDir, "bench", "minilm-embedder"), { seed: 42, shape: "minilm" });
}

export async function benchIndex(
  corpus: Corpus,
  questions: readonly Question[],
  embedderDir: string,
): Promise<IndexFigures> {
  // A fresh cache folder, so the first open builds and the second loads what the first wrote.
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), "blogqa-bench-index-"));
  try {
    const options = { retriever: "hybrid" as const, embeddingModel: embedderDir, dtype: "fp32" as const, cacheDir };
    let started = performance.now();
    await openIndex(corpus, options);
    const buildSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const index = await openIndex(corpus, options);
    const loadSeconds = (performance.now() - started) / 1000;
    await index.search("warm-up query"); // the first call pays one-off costs (session warm-up)
    const times: number[] = [];
    for (const q of questions) {
      const t = performance.now();
      await index.search(q.question, 3);
      times.push(performance.now() - t);
    }
    return {
      sections: corpus.sections.length,
      buildSeconds,
      loadSeconds,
      fromCache: index.fromCache,
      queryMs: median(times),
      queries: times.length,
    };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
