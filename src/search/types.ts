// The records and interfaces of the search stage: hits, retrievers, the index, the embedder.
import type { Corpus, Section } from "../corpus/index.ts";
import type { OnTick } from "../common/index.ts";

/** What a search shows the model: the study's hit. */
export interface Hit {
  readonly post: string;
  readonly heading: string;
  /** The first 60 words of the section text. */
  readonly snippet: string;
}

export type RetrieverKind = "bm25" | "dense" | "hybrid";
export const RETRIEVER_KINDS: readonly RetrieverKind[] = ["bm25", "dense", "hybrid"];

export type EmbeddingDtype = "fp32" | "fp16" | "q8";

export interface SearchOptions {
  readonly retriever: RetrieverKind;
  /** A hub id (default Xenova/all-MiniLM-L6-v2) or a local folder. Unused with bm25. */
  readonly embeddingModel: string;
  readonly dtype: EmbeddingDtype;
  /** Where the index cache (and downloaded embedding models) live. */
  readonly cacheDir: string;
  /** Report progress of long work (downloads, embedding) to a person. */
  readonly onProgress?: (message: string) => void;
  /** Counts sections embedded while the index is built; when given, it replaces the "embedded n/N" lines. */
  readonly onTick?: OnTick;
}

/** What produced the dense half of the index: goes into cache keys and manifests. */
export interface EmbeddingInfo {
  readonly model: string;
  readonly dtype: EmbeddingDtype;
  readonly library: string; // e.g. "@huggingface/transformers@4.3.2"
  readonly dimensions: number;
  /** A hash of the model's files (config, tokenizer, ONNX), so that a model changed in place invalidates caches. */
  readonly fingerprint?: string;
}

export interface SearchIndex {
  readonly corpus: Corpus;
  readonly retriever: RetrieverKind;
  /** undefined with the bm25 retriever: no embedding model is loaded then. */
  readonly embedding: EmbeddingInfo | undefined;
  /** True when the index came from the disk cache. */
  readonly fromCache: boolean;
  /** The study's search: top k hits (default 3). The workflow and the agent's tool both call this. */
  search(query: string, k?: number): Promise<Hit[]>;
  /** Look a section up in the index (never the filesystem); undefined when there is none. */
  section(post: string, heading: string): Section | undefined;
  /** Every post's slug, in corpus order. */
  posts(): readonly string[];
  /** A post's headings in order, or undefined when there is no such post. */
  headings(post: string): readonly string[] | undefined;
}

/** Sentence embeddings, mean-pooled and normalized, as sentence-transformers computes them. */
export interface Embedder {
  readonly info: EmbeddingInfo;
  /**
   * One vector per text, in order. Pass all texts in one call: the embedder sorts them by length before batching,
   * which pads far less than batches in corpus order (a third less compute on this blog). `onProgress` hears
   * after each batch how many texts are done.
   */
  embed(texts: readonly string[], onProgress?: (done: number, total: number) => void): Promise<Float32Array[]>;
}
