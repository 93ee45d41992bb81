// ensureTinyModel: a qwen2 GGUF (random weights, or zero blocks) with Qwen2.5's tokenizer and chat template; reused when current.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../common/index.ts";
import { currentStamp, writeStamp } from "../stamp.ts";
import { readQwen25Template } from "./qwen25-template.ts";
import { f32, qwenTokenizerMetadata, shapeMetadata, str, u32 } from "./gguf-metadata.ts";
import { writeGguf, type GgufTensorType, type GgufValue } from "./gguf-writer.ts";
import { qwen2Tensors, type WeightScales } from "./qwen2-tensors.ts";
import { QWEN25_SPECIAL_IDS, QWEN25_VOCAB_ROWS, loadQwenVocab, qwenTokenizerJsonPath } from "./qwen-vocab.ts";
import { SHAPES, type TinyModelShape } from "./qwen2-shapes.ts";
import { ZERO_BLOCK_WORDS, zeroBlockTensors } from "./zero-block-tensors.ts";
import { readTrainedWeights, trainedTensors, type TrainedWeights } from "./trained-tensors.ts";
import { sha256Hex, writeThroughTemp } from "../../common/index.ts";

/** Bump whenever the bytes written for the same arguments change, so stale cached models are regenerated. */
export const TINY_MODEL_GENERATOR_VERSION = 1;

export type TinyModelDtype = "f16" | "f32";

/**
 * random: seeded random weights (tests of everything but the logits' values, and benchmarks). zero-blocks: every
 * transformer block zero and a lookup table for logits (see zero-block-tensors.ts), always F32, for tests that must
 * know the logits exactly. trained: weights trained by scripts/train-agent/train.py (model.json and weights.bin in
 * `trainedDir`); their shape and types are their own, so shape, seed and dtype do not apply.
 */
export type TinyModelWeights = "random" | "zero-blocks" | "trained";

/** The trained model's file name in a cache's tiny/ folder: smoke and make-tiny-model --weights trained write it. */
export const TRAINED_MODEL_FILE = "trained-agent.gguf";

/** The GGUF general.name of a generated model; the report knows such a run by it (see report/random-weights.ts). */
export function tinyModelName(weights: TinyModelWeights, shape: string, seed: number): string {
  if (weights === "trained") return "blogqa trained agent qwen2";
  return `blogqa ${weights === "zero-blocks" ? "zero-block" : "random"} ${shape} qwen2, seed ${seed}`;
}

export interface TinyModelOptions {
  readonly out: string;
  readonly shape?: TinyModelShape; // default "tiny"
  readonly seed?: number; // default 1; an integer in [0, 2^32)
  /** Weight type of the matrices (norms and biases are always F32). Default f16. */
  readonly dtype?: TinyModelDtype;
  /** Where the chat template extracted from node-llama-cpp's llama.cpp bundle is cached; default: out's folder. */
  readonly cacheDir?: string;
  /** Write even when an up-to-date file is already at `out`. */
  readonly force?: boolean;
  readonly onProgress?: (writtenBytes: number, totalBytes: number) => void;
  /** For experiments only: other weight scales (the file's stamp records them, so reuse stays correct). */
  readonly scales?: WeightScales;
  /** Default random. */
  readonly weights?: TinyModelWeights;
  /** With weights "trained": the folder of model.json and weights.bin (default: the committed trained-agent/). */
  readonly trainedDir?: string;
}

export interface TinyModelResult {
  readonly path: string;
  readonly bytes: number;
  /** True when an up-to-date file was already there and nothing was written. */
  readonly reused: boolean;
  readonly seconds: number;
}

/**
 * What a file's bytes depend on, written beside it as `<out>.stamp.json` after a complete write. A file is reused
 * only when its stamp equals the one these arguments give and its size matches: anything else regenerates it.
 */
interface Stamp {
  readonly generator: number;
  readonly shape: TinyModelShape;
  readonly seed: number;
  readonly dtype: TinyModelDtype;
  readonly scales?: WeightScales;
  readonly weights?: "zero-blocks" | "trained";
  /** sha256 of the trained model's weights.bin and model.json, for weights "trained". */
  readonly trainedSha256?: string;
  readonly llamaCppCommit: string;
  readonly tokenizerSha256: string;
}

const stampPath = (out: string): string => `${out}.stamp.json`;

/** The stamp also records the file's size (`bytes`), so a truncated or replaced file is rewritten. */
function isUpToDate(out: string, expected: Stamp): boolean {
  const stored = currentStamp(stampPath(out), expected, ["bytes"]);
  return stored !== undefined && fs.existsSync(out) && fs.statSync(out).size === stored.bytes;
}

export async function ensureTinyModel(options: TinyModelOptions): Promise<TinyModelResult> {
  const started = performance.now();
  const shapeName = options.shape ?? "tiny";
  const seed = options.seed ?? 1;
  const zeroBlocks = options.weights === "zero-blocks";
  const trained: TrainedWeights | undefined =
    options.weights === "trained" ? readTrainedWeights(options.trainedDir) : undefined;
  const dtype = zeroBlocks ? "f32" : (options.dtype ?? "f16");
  const shape = trained?.shape ?? SHAPES[shapeName];
  if (shape === undefined)
    throw new UserError(
      `unknown model shape ${JSON.stringify(shapeName)}; expected one of ${Object.keys(SHAPES).join(", ")}`,
    );
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32)
    throw new UserError(`--seed must be an integer from 0 to 4294967295, got ${seed}`, 2);
  const out = path.resolve(options.out);
  const cacheDir = options.cacheDir ?? path.dirname(out);

  const tokenizerJson = qwenTokenizerJsonPath();
  const template = readQwen25Template(cacheDir);
  const stamp: Stamp = {
    generator: TINY_MODEL_GENERATOR_VERSION,
    shape: shapeName,
    seed,
    dtype,
    ...(options.scales ? { scales: options.scales } : {}),
    ...(zeroBlocks ? { weights: "zero-blocks" as const } : {}),
    ...(trained
      ? {
          weights: "trained" as const,
          trainedSha256: sha256Hex(Buffer.concat([trained.weights, Buffer.from(JSON.stringify(trained.info))])),
        }
      : {}),
    llamaCppCommit: template.commit,
    tokenizerSha256: sha256Hex(fs.readFileSync(tokenizerJson)),
  };
  if (!options.force && isUpToDate(out, stamp)) {
    return { path: out, bytes: fs.statSync(out).size, reused: true, seconds: (performance.now() - started) / 1000 };
  }

  const vocab = loadQwenVocab(tokenizerJson);
  const type: GgufTensorType = dtype === "f16" ? "F16" : "F32";
  const wordIds = () =>
    ZERO_BLOCK_WORDS.map((w) => {
      const id = vocab.tokens.indexOf(w.replace(/^ /, "\u0120")); // byte-level BPE writes a leading space as "Ġ"
      if (id < 0) throw new Error(`${JSON.stringify(w)} is not one token of the Qwen2.5 vocabulary`);
      return id;
    });
  const tensors = trained
    ? trainedTensors(trained)
    : zeroBlocks
      ? zeroBlockTensors(shape, QWEN25_VOCAB_ROWS, wordIds(), seed)
      : qwen2Tensors(shape, QWEN25_VOCAB_ROWS, type, seed, options.scales);
  const weightsKind = trained ? "trained" : zeroBlocks ? "zero-blocks" : "random";
  const metadata: [string, GgufValue][] = [
    ["general.architecture", str("qwen2")],
    ["general.type", str("model")],
    ["general.name", str(tinyModelName(weightsKind, shapeName, seed))],
    [
      "general.description",
      str(
        trained
          ? "A small agent model trained by blogqa on a scripted policy (scripts/train-agent/), with Qwen2.5's real tokenizer and chat template: it tests the harness end to end, never a real model's quality"
          : "Random weights with Qwen2.5's real tokenizer and chat template, written by blogqa make-tiny-model, for tests and benchmarks",
      ),
    ],
    ["general.file_type", u32(dtype === "f16" ? 1 : 0)], // llama_ftype: MOSTLY_F16 or ALL_F32
    ["blogqa.tiny_model.generator", u32(TINY_MODEL_GENERATOR_VERSION)],
    ["blogqa.tiny_model.shape", str(shapeName)],
    ["blogqa.tiny_model.seed", u32(seed)],
    ...shapeMetadata("qwen2", shape),
    ["qwen2.rope.freq_base", f32(shape.ropeTheta)],
    ["qwen2.attention.layer_norm_rms_epsilon", f32(shape.rmsEps)],
    ...qwenTokenizerMetadata(vocab, QWEN25_SPECIAL_IDS, template.text),
  ];

  // written beside the target and renamed, so a reader never sees a half-written model
  fs.rmSync(stampPath(out), { force: true });
  const bytes = writeThroughTemp(out, (temp) => writeGguf(temp, metadata, tensors, options.onProgress));
  writeStamp(stampPath(out), { ...stamp, bytes });
  return { path: out, bytes, reused: false, seconds: (performance.now() - started) / 1000 };
}
