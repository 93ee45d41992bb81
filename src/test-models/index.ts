// The generated test models: a random-weight qwen2 GGUF with Qwen2.5's real tokenizer and chat template, and a
// random BERT-style embedder. Tests, the smoke run, the benchmark and the make-tiny-* commands use them; the stages
// never import this folder.
export {
  ensureTinyModel,
  TRAINED_MODEL_FILE,
  type TinyModelDtype,
  type TinyModelWeights,
} from "./gguf/make-tiny-model.ts";

export { ensureTinyLlamaModel } from "./gguf/make-tiny-llama.ts";
export { ensureTinyQwen3Model } from "./gguf/make-tiny-qwen3.ts";

export { TINY_MODEL_SHAPES, type TinyModelShape } from "./gguf/qwen2-shapes.ts";
export { ensureTinyEmbedder, writeTinyEmbedder } from "./embedder/make-tiny-embedder.ts";

export { MAX_HIDDEN, TINY_EMBEDDER_SHAPES, type TinyEmbedderShapeName } from "./embedder/bert-shapes.ts";
