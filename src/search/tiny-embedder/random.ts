// A seeded PRNG for the tiny embedder's weights: integer and +-*/ arithmetic only, so every machine writes the same bytes.

/** mulberry32: a 32-bit state, good enough for random weights; `next()` is uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` floats uniform in [-limit, limit], as float32.
 * Subtle: no Math.log/cos (Box-Muller): those may round differently across engines; uniform weights need only * and -.
 */
export function uniformWeights(random: () => number, count: number, limit: number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = (random() * 2 - 1) * limit;
  return out;
}
