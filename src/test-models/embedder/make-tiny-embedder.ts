// Generates a BERT-style feature-extraction model folder that transformers.js loads through its real path.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../common/index.ts";
import { bertOnnx } from "./bert-graph.ts";
import { configJson, tokenizerConfigJson, tokenizerJson } from "./bert-files.ts";
import { currentStamp, stampText } from "../stamp.ts";
import { bertShape, type TinyEmbedderShapeName } from "./bert-shapes.ts";
import { minilmVocabulary } from "./minilm-vocab.ts";
import { tinyVocabulary } from "./vocab.ts";
import { writeFileAtomic } from "../../common/index.ts";

/** Bump when the bytes written for the same options change: the manifest carries it so stale copies are regenerated. */
export const TINY_EMBEDDER_VERSION = 3;

/** Written last, the folder's stamp: its presence means the folder is complete; its content says what made it. */
export const TINY_EMBEDDER_MANIFEST = "blogqa-tiny-embedder.json";

export interface TinyEmbedderOptions {
  readonly seed: number;
  readonly shape: TinyEmbedderShapeName;
  /** Hidden size; undefined: the shape's own (tiny 32, minilm 384). */
  readonly hidden?: number | undefined;
}

export interface TinyEmbedderManifest {
  readonly generator: "blogqa make-tiny-embedder";
  readonly version: number;
  readonly shape: TinyEmbedderShapeName;
  readonly seed: number;
  readonly hidden_size: number;
}

/**
 * The folder's files, path relative to the folder -> bytes, in writing order (manifest last).
 * Same options, same bytes: weights come from a seeded PRNG and JSON keys are written in a fixed order.
 * Example: tinyEmbedderFiles({seed: 42, shape: "tiny"}) has onnx/model.onnx (~0.3 MB), config.json,
 * tokenizer.json (1,315 tokens), tokenizer_config.json and the manifest; shape "minilm" gives a 90 MB model.onnx
 * and 30,522 tokens.
 */
export function tinyEmbedderFiles(options: TinyEmbedderOptions): Map<string, Uint8Array> {
  if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 0xffffffff) {
    throw new UserError(`--seed must be an integer from 0 to 4294967295, got ${options.seed}`, 2);
  }
  const vocabulary = options.shape === "tiny" ? tinyVocabulary() : minilmVocabulary();
  const shape = bertShape(options.shape, options.hidden, vocabulary.length);
  const producer = `blogqa make-tiny-embedder v${TINY_EMBEDDER_VERSION}`;
  const json = (value: object) => new TextEncoder().encode(stampText(value));
  return new Map([
    ["onnx/model.onnx", bertOnnx(shape, options.seed, producer)],
    ["config.json", json(configJson(shape))],
    ["tokenizer.json", json(tokenizerJson(vocabulary))],
    ["tokenizer_config.json", json(tokenizerConfigJson())],
    [TINY_EMBEDDER_MANIFEST, json(manifestFor(options.shape, options.seed, shape.hiddenSize))],
  ]);
}

function manifestFor(shape: TinyEmbedderShapeName, seed: number, hiddenSize: number): TinyEmbedderManifest {
  return {
    generator: "blogqa make-tiny-embedder",
    version: TINY_EMBEDDER_VERSION,
    shape,
    seed,
    hidden_size: hiddenSize,
  };
}

/** Writes the model folder at `out` (created if missing; our files replaced) and returns its absolute path. */
export function writeTinyEmbedder(out: string, options: TinyEmbedderOptions): string {
  const folder = path.resolve(out);
  for (const [relative, bytes] of tinyEmbedderFiles(options)) {
    writeFileAtomic(path.join(folder, relative), bytes);
  }
  return folder;
}

/**
 * The model folder at `dir`, written only when it is missing or was made by another generator version, shape or
 * seed. A fresh one is generated beside it and swapped in whole, so a concurrent process never reads half a model.
 */
export function ensureTinyEmbedder(
  dir: string,
  options: { readonly seed: number; readonly shape: TinyEmbedderShapeName },
): string {
  const folder = path.resolve(dir);
  const expected = manifestFor(options.shape, options.seed, bertShape(options.shape, undefined, 0).hiddenSize);
  if (currentStamp(path.join(folder, TINY_EMBEDDER_MANIFEST), expected) !== undefined) return folder;
  const fresh = `${folder}.tmp-${process.pid}`;
  writeTinyEmbedder(fresh, options);
  fs.rmSync(folder, { recursive: true, force: true });
  try {
    fs.renameSync(fresh, folder);
  } catch {
    // Another process swapped its copy in first: the same bytes, so keep theirs.
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  return folder;
}
