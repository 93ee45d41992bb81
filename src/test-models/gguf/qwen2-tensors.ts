// The tensors of a qwen2 model as llama.cpp names and shapes them, filled with seeded random values.
import type { GgufTensor, GgufTensorType } from "./gguf-writer.ts";
import { randomTensorData } from "../random.ts";
import type { Qwen2Shape } from "./qwen2-shapes.ts";

/**
 * Standard deviations of the random weights. Checked by decoding: with these, the tiny model's greedy output gave
 * 60 different tokens in 60 (Hugging Face's usual 0.02 everywhere gave 57). What matters is an untied output layer
 * and a residual stream that depends on the input token; test/test-models/tiny-model-llama.integration.test.ts guards it.
 */
export const WEIGHT_SCALES = {
  /** Embedding rows: large next to the layers' outputs, so each position's state depends on its token. */
  embedding: 1,
  /** Dense weights: gain / sqrt(fan_in) keeps activations at unit scale through the layers. */
  denseGain: 1,
  bias: 0.1,
  /** Output layer: gain / sqrt(hidden); logits with spread ~gain, so the argmax is decisive but context-dependent. */
  outputGain: 4,
} as const;

export type WeightScales = { readonly [K in keyof typeof WEIGHT_SCALES]: number };

/** All tensors of a qwen2 model, in the order llama.cpp's converter writes them. Norm weights are 1, in F32. */
export function qwen2Tensors(
  shape: Qwen2Shape,
  vocabRows: number,
  type: GgufTensorType,
  seed: number,
  scales: WeightScales = WEIGHT_SCALES,
): GgufTensor[] {
  const { hidden, ffn } = shape;
  const kvDim = (hidden / shape.heads) * shape.kvHeads;
  const tensor = (
    name: string,
    dims: readonly number[],
    tensorType: GgufTensorType,
    mean: number,
    std: number,
  ): GgufTensor => ({
    name,
    dims,
    type: tensorType,
    data: () =>
      randomTensorData(
        `${seed}/${name}`,
        dims.reduce((a, b) => a * b, 1),
        tensorType,
        mean,
        std,
      ),
  });
  // a matrix with `fanIn` inputs and `fanOut` outputs: GGUF lists the input dimension first
  const dense = (name: string, fanIn: number, fanOut: number, gain = scales.denseGain): GgufTensor =>
    tensor(name, [fanIn, fanOut], type, 0, gain / Math.sqrt(fanIn));
  const ones = (name: string, n: number): GgufTensor => tensor(name, [n], "F32", 1, 0);
  const bias = (name: string, n: number): GgufTensor => tensor(name, [n], "F32", 0, scales.bias);

  const tensors: GgufTensor[] = [tensor("token_embd.weight", [hidden, vocabRows], type, 0, scales.embedding)];
  for (let i = 0; i < shape.layers; i++) {
    const b = `blk.${i}`;
    tensors.push(
      ones(`${b}.attn_norm.weight`, hidden),
      dense(`${b}.attn_q.weight`, hidden, hidden),
      bias(`${b}.attn_q.bias`, hidden),
      dense(`${b}.attn_k.weight`, hidden, kvDim),
      bias(`${b}.attn_k.bias`, kvDim),
      dense(`${b}.attn_v.weight`, hidden, kvDim),
      bias(`${b}.attn_v.bias`, kvDim),
      dense(`${b}.attn_output.weight`, hidden, hidden),
      ones(`${b}.ffn_norm.weight`, hidden),
      dense(`${b}.ffn_gate.weight`, hidden, ffn),
      dense(`${b}.ffn_up.weight`, hidden, ffn),
      dense(`${b}.ffn_down.weight`, ffn, hidden),
    );
  }
  tensors.push(ones("output_norm.weight", hidden), dense("output.weight", hidden, vocabRows, scales.outputGain));
  return tensors;
}
