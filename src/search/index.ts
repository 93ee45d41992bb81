// The search stage's public face: open an index over a corpus and search it as the study did.
export type {
  EmbeddingDtype,
  EmbeddingInfo,
  Embedder,
  Hit,
  RetrieverKind,
  SearchIndex,
  SearchOptions,
} from "./types.ts";
export { RETRIEVER_KINDS } from "./types.ts";
export { openIndex } from "./open-index.ts";
export { snippet } from "./snippet.ts";

export { evaluateSearch, formatMisses, type RetrieverScore, type SearchEvaluation } from "./evaluate.ts";
export { loadEmbedder } from "./embedder.ts";
export { modelSource, modelFiles, probeHub } from "./embedder-source.ts";
export { questionStats, type QuestionSetStats } from "./question-stats.ts";
export { bm25Terms } from "./bm25.ts";
