// ensureTinyQwen3Model: a `qwen3` GGUF with random weights, Qwen3's real vocabulary (its <think> tokens kept) and
// Qwen3's chat template, so thinking on and off can be run offline.
import fs from "node:fs";
import path from "node:path";
import { sha256Hex } from "../../common/index.ts";
import { f32, qwenTokenizerMetadata, shapeMetadata, str, u32 } from "./gguf-metadata.ts";
import type { GgufTensor, GgufValue } from "./gguf-writer.ts";
import { ensureStampedGguf } from "./stamped-gguf.ts";
import {
  QWEN25_SPECIAL_IDS,
  QWEN25_VOCAB_ROWS,
  QWEN3_LAST_ADDED_ID,
  loadQwenVocab,
  qwenTokenizerJsonPath,
} from "./qwen-vocab.ts";
import { readBundledFile } from "./qwen25-template.ts";
import { SHAPES } from "./qwen2-shapes.ts";
import { qwen2Tensors } from "./qwen2-tensors.ts";
import { randomTensorData } from "../random.ts";

/** Bump whenever the bytes written for the same arguments change. */
export const TINY_QWEN3_GENERATOR_VERSION = 1;
export const QWEN3_TEMPLATE_PATH = "models/templates/Qwen-Qwen3-0.6B.jinja";

/**
 * The tiny shape as a `qwen3` model: Qwen2's tensors without the attention biases, plus the per-head RMS norms of
 * queries and keys (attn_q_norm, attn_k_norm) that Qwen3 adds (llama.cpp src/models/qwen3.cpp).
 */
export function ensureTinyQwen3Model(options: {
  readonly out: string;
  readonly seed?: number;
  readonly cacheDir?: string;
}): {
  readonly path: string;
  readonly reused: boolean;
} {
  const seed = options.seed ?? 1;
  const out = path.resolve(options.out);
  const template = readBundledFile(QWEN3_TEMPLATE_PATH, options.cacheDir ?? path.dirname(out));
  const tokenizerJson = qwenTokenizerJsonPath();
  const stamp = {
    generator: TINY_QWEN3_GENERATOR_VERSION,
    seed,
    llamaCppCommit: template.commit,
    tokenizerSha256: sha256Hex(fs.readFileSync(tokenizerJson)),
  };
  return ensureStampedGguf(out, stamp, () => {
    const shape = SHAPES.tiny;
    const headDim = shape.hidden / shape.heads;
    const vocab = loadQwenVocab(tokenizerJson, QWEN3_LAST_ADDED_ID);
    const norm = (name: string): GgufTensor => ({
      name,
      dims: [headDim],
      type: "F32",
      data: () => randomTensorData(`${seed}/${name}`, headDim, "F32", 1, 0),
    });
    const tensors = qwen2Tensors(shape, QWEN25_VOCAB_ROWS, "F16", seed)
      .filter((t) => !t.name.endsWith(".bias"))
      .flatMap((t) => {
        const block = /^blk\.(\d+)\.attn_output\.weight$/.exec(t.name);
        return block
          ? [norm(`blk.${block[1]}.attn_q_norm.weight`), norm(`blk.${block[1]}.attn_k_norm.weight`), t]
          : [t];
      });
    const metadata: [string, GgufValue][] = [
      ["general.architecture", str("qwen3")],
      ["general.type", str("model")],
      ["general.name", str(`blogqa random tiny qwen3, seed ${seed}`)],
      [
        "general.description",
        str("Random weights with Qwen3's real tokenizer and chat template, written by blogqa, for tests"),
      ],
      ["general.file_type", u32(1)], // MOSTLY_F16
      ...shapeMetadata("qwen3", shape),
      ["qwen3.attention.key_length", u32(headDim)],
      ["qwen3.attention.value_length", u32(headDim)],
      ["qwen3.rope.freq_base", f32(shape.ropeTheta)],
      ["qwen3.attention.layer_norm_rms_epsilon", f32(shape.rmsEps)],
      ...qwenTokenizerMetadata(vocab, QWEN25_SPECIAL_IDS, template.text),
    ];
    return { metadata, tensors };
  });
}
