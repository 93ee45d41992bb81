// The model shapes make-tiny-model can write: a tiny one for tests, and Qwen2.5's real ones for benchmarks.

export const TINY_MODEL_SHAPES = ["tiny", "qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-3b"] as const;
export type TinyModelShape = (typeof TINY_MODEL_SHAPES)[number];

export interface Qwen2Shape {
  readonly hidden: number;
  readonly layers: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly ffn: number;
  readonly contextLength: number;
  readonly ropeTheta: number;
  readonly rmsEps: number;
}

// Qwen2.5 config.json values for the shared fields; Qwen2.5-0.5B ties its output layer to the embeddings, but here
// every shape gets its own output.weight (tied random weights make greedy decoding repeat one token).
const QWEN25 = { contextLength: 32768, ropeTheta: 1_000_000, rmsEps: 1e-6 } as const;

export const SHAPES: Readonly<Record<TinyModelShape, Qwen2Shape>> = {
  tiny: { ...QWEN25, hidden: 64, layers: 2, heads: 4, kvHeads: 2, ffn: 128 },
  "qwen2.5-0.5b": { ...QWEN25, hidden: 896, layers: 24, heads: 14, kvHeads: 2, ffn: 4864 },
  "qwen2.5-1.5b": { ...QWEN25, hidden: 1536, layers: 28, heads: 12, kvHeads: 2, ffn: 8960 },
  "qwen2.5-3b": { ...QWEN25, hidden: 2048, layers: 36, heads: 16, kvHeads: 2, ffn: 11008 },
};
