// The tiny test model, generated once into .cache/test/tiny/ and reused by every test that needs a real GGUF.
import os from "node:os";
import path from "node:path";
import {
  ensureTinyLlamaModel,
  ensureTinyModel,
  ensureTinyQwen3Model,
  TRAINED_MODEL_FILE,
} from "../../src/test-models/index.ts";
import { repoRoot } from "./run-cli.ts";

/** Where test artifacts are cached (git-ignored); also holds the chat template extracted from node-llama-cpp. */
export const testCacheDir = path.join(repoRoot, ".cache", "test");

/**
 * Where `smoke --cache-dir .cache/test` keeps its tiny model and embedder (`<cache>/tiny/`): the tests' models live
 * there too, so the suite stores each once.
 */
export const tinyModelsDir = path.join(testCacheDir, "tiny");

/**
 * A --context-size the tiny model cannot have on this machine: its KV cache takes about 10 kB a token, so a token
 * per kB of RAM is ten times too many. Not more: llama.cpp allocates its cells' bookkeeping before it refuses (20 GB
 * and over two minutes for a billion tokens).
 */
export const TOO_LARGE_CONTEXT = Math.max(10_000_000, Math.ceil(os.totalmem() / 1000));

let pending: Promise<string> | undefined;

/**
 * Path of the tiny qwen2 model (seed 1, f16, ~45 MB): written on first use (about a second), reused afterwards,
 * also across test processes, while its stamp says it is up to date.
 */
export function tinyModelPath(): Promise<string> {
  pending ??= ensureTinyModel({
    out: path.join(tinyModelsDir, "tiny-seed1.gguf"),
    shape: "tiny",
    seed: 1,
    cacheDir: tinyModelsDir,
  }).then((r) => r.path);
  return pending;
}

let zeroBlockPending: Promise<string> | undefined;

/** The zero-block model (seed 1, F32, ~80 MB), whose logits are a lookup table a test can read from the file. */
export function zeroBlockModelPath(): Promise<string> {
  zeroBlockPending ??= ensureTinyModel({
    out: path.join(testCacheDir, "zero-block-seed1.gguf"),
    weights: "zero-blocks",
    seed: 1,
    cacheDir: testCacheDir,
  }).then((r) => r.path);
  return zeroBlockPending;
}

/** The tiny llama model (seed 1, f16, ~16 MB): Llama 3.1's vocabulary and chat template on random weights. */
export function tinyLlamaPath(): string {
  return ensureTinyLlamaModel({ out: path.join(tinyModelsDir, "tiny-llama-seed1.gguf"), cacheDir: tinyModelsDir }).path;
}

/** The tiny qwen3 model (seed 1, f16): Qwen3's vocabulary (with <think>) and chat template on random weights. */
export function tinyQwen3Path(): string {
  return ensureTinyQwen3Model({ out: path.join(tinyModelsDir, "tiny-qwen3-seed1.gguf"), cacheDir: tinyModelsDir }).path;
}

let pendingTrained: Promise<string> | undefined;

/** Path of the trained agent model (the file `smoke --cache-dir .cache/test` runs), written from the committed weights. */
export function trainedModelPath(): Promise<string> {
  pendingTrained ??= ensureTinyModel({
    out: path.join(tinyModelsDir, TRAINED_MODEL_FILE),
    weights: "trained",
    cacheDir: tinyModelsDir,
  }).then((r) => r.path);
  return pendingTrained;
}
