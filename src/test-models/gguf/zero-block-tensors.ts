// A qwen2 model whose next-token logits a test can compute by hand: every transformer block is zero.
//
// With every attention and feed-forward weight and bias zero, each block adds nothing to the residual stream, so a
// position's state is its token's embedding, and the logits are output.weight x rms_norm(embedding of the last
// token). Embedding rows are one-hot "slots" scaled to unit RMS, so the logits after token t are column slot(t) of
// output.weight, times 8: a lookup table of next-token scores, written so the repetition penalty often changes the
// winner, on positive logits (divided) and negative ones (multiplied).
// Read in llama.cpp's qwen2 graph (src/models/qwen2.cpp at the commit node-llama-cpp 3.21.1 ships): the embedding
// is not scaled; each block adds attn_output x softmax(QK^T)V, zero with V and attn_output zero, then ffn_down x
// (silu(gate x) * up x), zero with ffn_down zero, to its input; then output x rms_norm(state) x output_norm, with no
// output bias (none is written) and no logit scaling. The test checks the result, step by step, against that formula.
import type { GgufTensor } from "./gguf-writer.ts";
import type { Qwen2Shape } from "./qwen2-shapes.ts";
import { randomTensorData, uniformFloats } from "../random.ts";

/** The 40 words the table scores, each a single Qwen2.5 token with its leading space ("Ġcat"). */
export const ZERO_BLOCK_WORDS = [
  "the",
  "a",
  "cat",
  "dog",
  "sat",
  "on",
  "mat",
  "red",
  "blue",
  "green",
  "big",
  "small",
  "runs",
  "jumps",
  "over",
  "under",
  "and",
  "or",
  "but",
  "with",
  "house",
  "tree",
  "bird",
  "fish",
  "sun",
  "moon",
  "star",
  "rain",
  "snow",
  "wind",
  "fire",
  "water",
  "stone",
  "road",
  "river",
  "hill",
  "city",
  "town",
  "book",
  "song",
].map((w) => ` ${w}`);

/**
 * Logits, in units of 1/16, of word candidates after the token of slot `slot`: 40..79 in a seeded order, positive
 * or negative; the model makes even slots (and the slot of every token that is not a word) positive, odd ones
 * negative. Every other token scores 0
 * after a positive slot and -200 after a negative one, so a word always wins. Distinct integers under 100 mean no
 * two words tie with or without a penalty like 1.13 (m_a = 1.13 m_b has no solution in integers below 100).
 */
export function slotScores(
  seed: number,
  slot: number,
  words: number,
  positive: boolean,
): { readonly sign: 1 | -1; readonly units: Int32Array } {
  const keys = uniformFloats(`${seed}/slot${slot}`, words, 0.5, 0.25);
  const order = Array.from({ length: words }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);
  const units = new Int32Array(words);
  order.forEach((word, rank) => {
    units[word] = 40 + rank;
  });
  return { sign: positive ? 1 : -1, units };
}

/** 16ths of a logit; the one-hot embedding's norm scales the output column by 8, so weights are units / 128. */
const UNIT = 1 / 16;
const EMBEDDING_SCALE = 8;
const OTHER_NEGATIVE_UNITS = -200;

/**
 * All tensors of the zero-block model (F32), for `wordIds[i]` = the token id of ZERO_BLOCK_WORDS[i]. Slot i belongs
 * to word i; every other token shares the last slot, which scores like an even (positive) one.
 */
export function zeroBlockTensors(
  shape: Qwen2Shape,
  vocabRows: number,
  wordIds: readonly number[],
  seed: number,
): GgufTensor[] {
  const { hidden, ffn } = shape;
  if (wordIds.length >= hidden) throw new Error(`${wordIds.length} words need more than ${hidden} slots`);
  const otherSlot = hidden - 1;
  const slotOf = new Int32Array(vocabRows).fill(otherSlot);
  const wordOf = new Int32Array(vocabRows).fill(-1);
  wordIds.forEach((id, i) => {
    slotOf[id] = i;
    wordOf[id] = i;
  });
  const scores = Array.from({ length: hidden }, (_, slot) =>
    slotScores(seed, slot, wordIds.length, slot % 2 === 0 || slot === otherSlot),
  );
  const used = (slot: number) => slot < wordIds.length || slot === otherSlot;
  const kvDim = (hidden / shape.heads) * shape.kvHeads;

  const constant = (name: string, dims: readonly number[], value: number): GgufTensor => ({
    name,
    dims,
    type: "F32",
    data: () =>
      randomTensorData(
        name,
        dims.reduce((a, b) => a * b, 1),
        "F32",
        value,
        0,
      ),
  });
  // row by row: `row(r, out)` fills one row of `hidden` floats
  const rows = (name: string, row: (r: number, out: Float32Array) => void): GgufTensor => ({
    name,
    dims: [hidden, vocabRows],
    type: "F32",
    data: function* () {
      const perChunk = 4096;
      for (let start = 0; start < vocabRows; start += perChunk) {
        const n = Math.min(perChunk, vocabRows - start);
        const chunk = new Float32Array(n * hidden);
        for (let r = 0; r < n; r++) row(start + r, chunk.subarray(r * hidden, (r + 1) * hidden));
        yield new Uint8Array(chunk.buffer);
      }
    },
  });

  const tensors: GgufTensor[] = [rows("token_embd.weight", (t, out) => (out[slotOf[t]!] = EMBEDDING_SCALE))];
  for (let i = 0; i < shape.layers; i++) {
    const b = `blk.${i}`;
    tensors.push(
      constant(`${b}.attn_norm.weight`, [hidden], 1),
      constant(`${b}.attn_q.weight`, [hidden, hidden], 0),
      constant(`${b}.attn_q.bias`, [hidden], 0),
      constant(`${b}.attn_k.weight`, [hidden, kvDim], 0),
      constant(`${b}.attn_k.bias`, [kvDim], 0),
      constant(`${b}.attn_v.weight`, [hidden, kvDim], 0),
      constant(`${b}.attn_v.bias`, [kvDim], 0),
      constant(`${b}.attn_output.weight`, [hidden, hidden], 0),
      constant(`${b}.ffn_norm.weight`, [hidden], 1),
      constant(`${b}.ffn_gate.weight`, [hidden, ffn], 0),
      constant(`${b}.ffn_up.weight`, [hidden, ffn], 0),
      constant(`${b}.ffn_down.weight`, [ffn, hidden], 0),
    );
  }
  tensors.push(
    constant("output_norm.weight", [hidden], 1),
    rows("output.weight", (j, out) => {
      const word = wordOf[j]!;
      for (let slot = 0; slot < hidden; slot++) {
        if (!used(slot)) continue;
        const { sign, units } = scores[slot]!;
        const u = word >= 0 ? sign * units[word]! : sign > 0 ? 0 : OTHER_NEGATIVE_UNITS;
        out[slot] = (u * UNIT) / EMBEDDING_SCALE;
      }
    }),
  );
  return tensors;
}
