// The trained agent model's tensors: the committed weights (src/test-models/trained-agent/, written by
// scripts/train-agent/train.py) laid out as llama.cpp's qwen2 tensors, every vocabulary row the training never used zero.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { UserError } from "../../common/index.ts";
import type { GgufTensor } from "./gguf-writer.ts";
import type { Qwen2Shape } from "./qwen2-shapes.ts";

/** The committed weights' folder: model.json (shape, used tokens, tensor table) and weights.bin. */
export const TRAINED_AGENT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "trained-agent");

const trainedInfoSchema = z.object({
  format: z.literal(1),
  architecture: z.literal("qwen2"),
  shape: z.object({
    hidden: z.number().int().positive(),
    layers: z.number().int().positive(),
    heads: z.number().int().positive(),
    kv_heads: z.number().int().positive(),
    ffn: z.number().int().positive(),
    rope_theta: z.number().positive(),
    rms_eps: z.number().positive(),
  }),
  vocab_rows: z.number().int().positive(),
  used_tokens: z.array(z.number().int().nonnegative()),
  tensors: z.array(
    z.object({
      name: z.string(),
      shape: z.array(z.number().int().positive()),
      dtype: z.enum(["float16", "float32"]),
      offset: z.number().int().nonnegative(),
    }),
  ),
  training: z.record(z.string(), z.unknown()),
});

export type TrainedInfo = z.infer<typeof trainedInfoSchema>;

export interface TrainedWeights {
  readonly info: TrainedInfo;
  readonly weights: Buffer;
  /** The qwen2 shape the GGUF declares (context length: Qwen2.5's, like every generated model). */
  readonly shape: Qwen2Shape;
}

/** Reads and checks the committed weights; a missing or damaged folder is one line naming it. */
export function readTrainedWeights(dir: string = TRAINED_AGENT_DIR): TrainedWeights {
  const infoPath = path.join(dir, "model.json");
  const weightsPath = path.join(dir, "weights.bin");
  let info: TrainedInfo;
  let weights: Buffer;
  try {
    info = trainedInfoSchema.parse(JSON.parse(fs.readFileSync(infoPath, "utf8")));
    weights = fs.readFileSync(weightsPath);
  } catch (error) {
    throw new UserError(
      `cannot read the trained model's weights in ${dir}: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  const { hidden, layers, heads, kv_heads: kvHeads, ffn, rope_theta: ropeTheta, rms_eps: rmsEps } = info.shape;
  for (const t of info.tensors) {
    const bytes = t.shape.reduce((a, b) => a * b, 1) * (t.dtype === "float16" ? 2 : 4);
    if (t.offset + bytes > weights.length)
      throw new UserError(`${weightsPath}: tensor ${t.name} runs past the end of the file (${weights.length} bytes)`);
  }
  const shape: Qwen2Shape = { hidden, layers, heads, kvHeads, ffn, contextLength: 32768, ropeTheta, rmsEps };
  return { info, weights, shape };
}

/**
 * The GGUF's tensors: token_embd expanded to every vocabulary row (the used tokens' rows in place, the others
 * zero), the rest as stored. No output.weight: llama.cpp then ties the output layer to token_embd, as training did.
 */
export function trainedTensors({ info, weights }: TrainedWeights): GgufTensor[] {
  const hidden = info.shape.hidden;
  return info.tensors.map((t): GgufTensor => {
    const count = t.shape.reduce((a, b) => a * b, 1);
    const bytesPer = t.dtype === "float16" ? 2 : 4;
    const stored = weights.subarray(t.offset, t.offset + count * bytesPer);
    const type = t.dtype === "float16" ? "F16" : "F32";
    if (t.name !== "token_embd.weight")
      return { name: t.name, dims: [...t.shape].reverse(), type, data: () => [stored] };
    return {
      name: t.name,
      dims: [hidden, info.vocab_rows],
      type,
      data: () => expandRows(stored, info.used_tokens, info.vocab_rows, hidden * bytesPer),
    };
  });
}

/** The full embedding matrix, row by row, in chunks: stored row i goes to vocabulary row used[i]. */
function* expandRows(stored: Buffer, used: readonly number[], rows: number, rowBytes: number): Generator<Uint8Array> {
  const rowsPerChunk = 4096;
  const byRow = new Map(used.map((token, i) => [token, i]));
  for (let start = 0; start < rows; start += rowsPerChunk) {
    const n = Math.min(rowsPerChunk, rows - start);
    const chunk = new Uint8Array(n * rowBytes);
    for (let r = 0; r < n; r++) {
      const i = byRow.get(start + r);
      if (i !== undefined) chunk.set(stored.subarray(i * rowBytes, (i + 1) * rowBytes), r * rowBytes);
    }
    yield chunk;
  }
}
