// The sizes of the generated embedders: a tiny default for tests, and MiniLM's shape for benchmarks.
import { UserError } from "../../common/index.ts";

export type TinyEmbedderShapeName = "tiny" | "minilm";
export const TINY_EMBEDDER_SHAPES: readonly TinyEmbedderShapeName[] = ["tiny", "minilm"];

/** A BERT encoder's sizes, named as in BERT's config.json. */
export interface BertShape {
  readonly hiddenSize: number;
  readonly numHiddenLayers: number;
  readonly numAttentionHeads: number;
  readonly intermediateSize: number;
  /** Embedding rows; at least the tokenizer's vocabulary (extra rows are never looked up). */
  readonly vocabSize: number;
  readonly maxPositionEmbeddings: number;
  readonly typeVocabSize: number;
}

/**
 * The shape for a name, a hidden size (undefined: the shape's own) and the tokenizer's vocabulary size.
 * tiny: 1 layer, 2 heads, hidden 32, embedding rows = the tokenizer's vocabulary (1,315): about 0.3 MB.
 * minilm: all-MiniLM-L6-v2's sizes (6 layers, 12 heads, hidden 384, FFN 1536, 30,522 rows): about 90 MB and the
 * same compute per token, so embedding time with it predicts the real model's (an ONNX export of a PyTorch
 * BertModel of these sizes ran within 10% of it in onnxruntime 1.30).
 */
/** BERT-large's width: wider writes gigabytes of random weights (4096 in the minilm shape: about 5 GB). */
export const MAX_HIDDEN = 1024;

export function bertShape(
  name: TinyEmbedderShapeName,
  hidden: number | undefined,
  tokenizerVocabSize: number,
): BertShape {
  const heads = name === "tiny" ? 2 : 12;
  const hiddenSize = hidden ?? (name === "tiny" ? 32 : 384);
  if (!Number.isInteger(hiddenSize) || hiddenSize <= 0 || hiddenSize % heads !== 0 || hiddenSize > MAX_HIDDEN) {
    throw new UserError(
      `--hidden must be a positive multiple of ${heads} (the ${name} shape's attention heads) up to ${MAX_HIDDEN}, got ${hidden}`,
      2,
    );
  }
  return {
    hiddenSize,
    numHiddenLayers: name === "tiny" ? 1 : 6,
    numAttentionHeads: heads,
    intermediateSize: 4 * hiddenSize,
    vocabSize: tokenizerVocabSize,
    maxPositionEmbeddings: 512,
    typeVocabSize: 2,
  };
}
