// The tiny embedder generator's public face (re-exported by src/search/index.ts).
export { ensureTinyEmbedder, readTinyEmbedderManifest, tinyEmbedderFiles, writeTinyEmbedder, TINY_EMBEDDER_MANIFEST, TINY_EMBEDDER_VERSION } from "./make-tiny-embedder.ts";
export type { TinyEmbedderManifest, TinyEmbedderOptions } from "./make-tiny-embedder.ts";
export { TINY_EMBEDDER_SHAPES, type TinyEmbedderShapeName } from "./shapes.ts";
export { tinyVocabulary } from "./vocab.ts";
