// The tiny embedding model, generated once into .cache/test/tiny/tiny-embedder (where smoke keeps it too) for every test that embeds.
import path from "node:path";
import { ensureTinyEmbedder } from "../../src/test-models/index.ts";
import { repoRoot } from "./run-cli.ts";

/** The generator arguments of the shared test model. */
export const TINY_EMBEDDER_SEED = 42;

/** Its folder (git-ignored, like every generated artifact). */
export const tinyEmbedderDir = path.join(repoRoot, ".cache", "test", "tiny", "tiny-embedder");

/**
 * Path of the tiny BERT-style model (seed 42, hidden 32, about 0.3 MB; load it with
 * `loadEmbedder(tinyEmbedderPath(), { dtype: "fp32", cacheDir })`). Written on first use (a few tens of ms),
 * reused while its manifest matches the generator's version, also across test processes.
 */
export function tinyEmbedderPath(): string {
  return ensureTinyEmbedder(tinyEmbedderDir, { seed: TINY_EMBEDDER_SEED, shape: "tiny" });
}
