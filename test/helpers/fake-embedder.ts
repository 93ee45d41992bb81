// A tiny deterministic Embedder for tests: hashed bag of words, normalized, with a call log.
import type { Embedder, EmbeddingInfo } from "../../src/search/types.ts";

export interface FakeEmbedder extends Embedder {
  /** Every text embedded, in order: shows whether a cached index re-embedded sections. */
  readonly calls: string[];
}

/** Words hash into `dimensions` buckets; texts sharing words get high cosine. Not a language model, just stable. */
export function fakeEmbedder(info: Partial<EmbeddingInfo> = {}): FakeEmbedder {
  const full: EmbeddingInfo = { model: "fake/bag-of-words", dtype: "fp32", library: "fake@1", dimensions: 32, ...info };
  const calls: string[] = [];
  return {
    info: full,
    calls,
    async embed(texts) {
      calls.push(...texts);
      return texts.map((text) => {
        const v = new Float32Array(full.dimensions);
        for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
          let h = 2166136261;
          for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
          v[(h >>> 0) % full.dimensions]! += 1;
        }
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
    },
  };
}
