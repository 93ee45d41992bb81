// The tiny embedding model, generated once into .cache/test/tiny-embedder and reused by every test that embeds.
import fs from "node:fs";
import path from "node:path";
import { readTinyEmbedderManifest, TINY_EMBEDDER_VERSION, writeTinyEmbedder } from "../../src/search/tiny-embedder/index.ts";
import { repoRoot } from "./run-cli.ts";

/** The generator arguments of the shared test model. */
export const TINY_EMBEDDER_SEED = 42;

/** Its folder (git-ignored, like every generated artifact). */
export const tinyEmbedderDir = path.join(repoRoot, ".cache", "test", "tiny-embedder");

/**
 * Path of the tiny BERT-style model (seed 42, hidden 32, about 0.3 MB; load it with
 * `loadEmbedder(tinyEmbedderPath(), { dtype: "fp32", cacheDir })`). Written on first use (a few tens of ms),
 * reused while its manifest matches the generator's version, also across test processes.
 */
export function tinyEmbedderPath(): string {
  const manifest = readTinyEmbedderManifest(tinyEmbedderDir);
  const current = manifest?.version === TINY_EMBEDDER_VERSION && manifest.shape === "tiny" && manifest.seed === TINY_EMBEDDER_SEED;
  if (current) return tinyEmbedderDir;
  // Generate beside it, then swap it in whole, so that a concurrent test process never reads half a model.
  const fresh = `${tinyEmbedderDir}.tmp-${process.pid}`;
  writeTinyEmbedder(fresh, { seed: TINY_EMBEDDER_SEED, shape: "tiny" });
  fs.rmSync(tinyEmbedderDir, { recursive: true, force: true });
  try {
    fs.renameSync(fresh, tinyEmbedderDir);
  } catch {
    // Another process swapped its copy in first: the same bytes, so keep theirs.
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  return tinyEmbedderDir;
}
