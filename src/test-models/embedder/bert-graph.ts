// A BERT encoder as an ONNX graph (BertModel's forward, post-LayerNorm), with seeded random weights.
import { GraphBuilder, float, int, ints } from "./onnx-builder.ts";
import { uniformFloats } from "../random.ts";
import type { BertShape } from "./bert-shapes.ts";

const BATCH = "batch_size";
const SEQUENCE = "sequence_length";

/**
 * The model.onnx bytes for `shape`; each weight tensor is drawn from its own stream, named by the seed and its name.
 * Inputs are BERT's (input_ids, attention_mask, token_type_ids: int64 [batch, seq]); the output is
 * last_hidden_state (float32 [batch, seq, hidden]), which transformers.js mean-pools.
 *
 * Weights (uniform, so every machine draws the same floats): word embeddings large (+-1) and positions small
 * (+-0.1), so that a word keeps its identity through the layers and mean-pooled vectors of texts sharing words
 * are close; linear layers scaled by 1/sqrt(fan_in), so attention really mixes tokens and a missing attention
 * mask would show.
 */
export function bertOnnx(shape: BertShape, seed: number, producer: string): Uint8Array {
  const g = new GraphBuilder();
  // a weight uniform on [-limit, limit] (whose standard deviation is limit / sqrt(3))
  const weights = (name: string, dims: readonly number[], limit: number) =>
    g.floats(name, dims, uniformFloats(`${seed}/${name}`, dims[0]! * (dims[1] ?? 1), 0, limit / Math.sqrt(3)));
  const H = shape.hiddenSize;
  const heads = shape.numAttentionHeads;
  const headSize = H / heads;
  const linear = (name: string, inSize: number, outSize: number) => ({
    weight: weights(`${name}.weight`, [inSize, outSize], Math.sqrt(3 / inSize)),
    bias: weights(`${name}.bias`, [outSize], 0.02),
  });
  const layerNorm = (name: string) => ({
    scale: g.floats(`${name}.weight`, [H], new Float32Array(H).fill(1)),
    bias: g.floats(`${name}.bias`, [H], new Float32Array(H)),
  });
  const applyLinear = (x: string, l: { weight: string; bias: string }) =>
    g.node("Add", [g.node("MatMul", [x, l.weight]), l.bias]);
  const applyLayerNorm = (x: string, ln: { scale: string; bias: string }, output?: string) =>
    g.node("LayerNormalization", [x, ln.scale, ln.bias], { axis: int(-1), epsilon: float(1e-12) }, output);

  // Embeddings: word + position + token type, then LayerNorm.
  const words = weights("embeddings.word_embeddings.weight", [shape.vocabSize, H], 1);
  const positions = weights("embeddings.position_embeddings.weight", [shape.maxPositionEmbeddings, H], 0.1);
  const types = weights("embeddings.token_type_embeddings.weight", [shape.typeVocabSize, H], 0.1);
  const embeddingsNorm = layerNorm("embeddings.LayerNorm");

  const zero = g.int64s("const_zero_1d", [1], [0]);
  // Positions 0..seq-1: the first seq rows of the position table (Shape's start/end attributes need opset 15).
  const seqLength = g.node("Shape", ["input_ids"], { start: int(1), end: int(2) });
  const positionRows = g.node("Slice", [positions, zero, seqLength, zero]);
  const summed = g.node("Add", [
    g.node("Add", [
      g.node("Gather", [words, "input_ids"], { axis: int(0) }),
      g.node("Gather", [types, "token_type_ids"], { axis: int(0) }),
    ]),
    positionRows,
  ]);
  let hidden = applyLayerNorm(summed, embeddingsNorm);

  // The additive attention mask, [batch, 1, 1, seq]: 0 where attended, -10000 on padding (BERT's own constant).
  const maskFloat = g.node("Unsqueeze", [
    g.node("Cast", ["attention_mask"], { to: int(1) }),
    g.int64s("const_mask_axes", [2], [1, 2]),
  ]);
  const one = g.floats("const_one", [], new Float32Array([1]));
  const maskBias = g.node("Mul", [
    g.node("Sub", [one, maskFloat]),
    g.floats("const_mask_value", [], new Float32Array([-10000])),
  ]);

  const splitHeads = g.int64s("const_split_heads", [4], [0, 0, heads, headSize]);
  const mergeHeads = g.int64s("const_merge_heads", [3], [0, 0, H]);
  const scale = g.floats("const_attention_scale", [], new Float32Array([1 / Math.sqrt(headSize)]));
  const half = g.floats("const_half", [], new Float32Array([0.5]));
  const sqrt2 = g.floats("const_sqrt2", [], new Float32Array([Math.SQRT2]));

  for (let l = 0; l < shape.numHiddenLayers; l++) {
    const prefix = `encoder.layer.${l}`;
    const query = linear(`${prefix}.attention.self.query`, H, H);
    const key = linear(`${prefix}.attention.self.key`, H, H);
    const value = linear(`${prefix}.attention.self.value`, H, H);
    const attentionOutput = linear(`${prefix}.attention.output.dense`, H, H);
    const attentionNorm = layerNorm(`${prefix}.attention.output.LayerNorm`);
    const intermediate = linear(`${prefix}.intermediate.dense`, H, shape.intermediateSize);
    const output = linear(`${prefix}.output.dense`, shape.intermediateSize, H);
    const outputNorm = layerNorm(`${prefix}.output.LayerNorm`);

    // Self-attention: [batch, seq, H] -> [batch, heads, seq, headSize] for q and v, [batch, heads, headSize, seq] for k.
    const toHeads = (x: string, perm: number[]) =>
      g.node("Transpose", [g.node("Reshape", [x, splitHeads])], { perm: ints(perm) });
    const q = toHeads(applyLinear(hidden, query), [0, 2, 1, 3]);
    const k = toHeads(applyLinear(hidden, key), [0, 2, 3, 1]);
    const v = toHeads(applyLinear(hidden, value), [0, 2, 1, 3]);
    const scores = g.node("Add", [g.node("Mul", [g.node("MatMul", [q, k]), scale]), maskBias]);
    const context = g.node("MatMul", [g.node("Softmax", [scores], { axis: int(-1) }), v]);
    const merged = g.node("Reshape", [g.node("Transpose", [context], { perm: ints([0, 2, 1, 3]) }), mergeHeads]);
    const attended = applyLayerNorm(g.node("Add", [applyLinear(merged, attentionOutput), hidden]), attentionNorm);

    // Feed-forward with exact GELU, 0.5 * x * (1 + erf(x / sqrt 2)), as BERT's "gelu" (opset 17 has no Gelu op).
    const pre = applyLinear(attended, intermediate);
    const gelu = g.node("Mul", [
      g.node("Mul", [pre, half]),
      g.node("Add", [g.node("Erf", [g.node("Div", [pre, sqrt2])]), one]),
    ]);
    const last = l === shape.numHiddenLayers - 1;
    hidden = applyLayerNorm(
      g.node("Add", [applyLinear(gelu, output), attended]),
      outputNorm,
      last ? "last_hidden_state" : undefined,
    );
  }

  const tokens = [BATCH, SEQUENCE];
  return g.encode(
    "tiny_bert",
    [
      { name: "input_ids", type: "int64", dims: tokens },
      { name: "attention_mask", type: "int64", dims: tokens },
      { name: "token_type_ids", type: "int64", dims: tokens },
    ],
    [{ name: "last_hidden_state", type: "float32", dims: [BATCH, SEQUENCE, H] }],
    producer,
  );
}
