// The one seeded generator of the test models' weights, fast enough to write gigabytes: one 32-bit draw picks two
// values from a lookup table. Integer arithmetic only, so every machine writes the same bytes.

/** The element types weights are written in. */
export type WeightType = "F16" | "F32";

/** FNV-1a over a string: turns (seed, tensor name) into a per-tensor stream seed, so tensors are independent of order. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * sfc32, a small fast generator with a 128-bit state; good enough for weights, and exactly reproducible in JS.
 * The state is an Int32Array [a, b, c, d] so the fill loops below can keep it in locals.
 */
function sfc32State(seedText: string): Int32Array {
  const state = Int32Array.of(fnv1a(`a:${seedText}`), fnv1a(`b:${seedText}`), fnv1a(`c:${seedText}`), 1);
  fillHalves(state, new Uint32Array(16), ZEROS, 32); // 16 draws, thrown away, mix the seed in before use
  return state;
}

const ZEROS = new Uint16Array(65536);

// subtle: the two fill loops inline sfc32 with its state in locals, and each handles one type only, so V8 keeps
// them monomorphic; a closure call per draw, or one loop for both types, ran 3 to 10 times slower.

/** Fills n (even) F16 values, two per draw, into `out` (as uint32 pairs: the low half first, little-endian). */
function fillHalves(state: Int32Array, out: Uint32Array, table: Uint16Array, n: number): void {
  let a = state[0]!,
    b = state[1]!,
    c = state[2]!,
    d = state[3]!;
  for (let i = 0; i < n >>> 1; i++) {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    out[i] = table[t & 0xffff]! | (table[t >>> 16]! << 16);
  }
  state[0] = a;
  state[1] = b;
  state[2] = c;
  state[3] = d;
}

/** Fills n (even) F32 values, two per draw. */
function fillFloats(state: Int32Array, out: Float32Array, table: Float32Array, n: number): void {
  let a = state[0]!,
    b = state[1]!,
    c = state[2]!,
    d = state[3]!;
  for (let i = 0; i < n; i += 2) {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    out[i] = table[t & 0xffff]!;
    out[i + 1] = table[t >>> 16]!;
  }
  state[0] = a;
  state[1] = b;
  state[2] = c;
  state[3] = d;
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** IEEE half-precision bits of a number, rounded to nearest even (Node 20 has no Float16Array). */
export function toFloat16Bits(value: number): number {
  f32Scratch[0] = value;
  const x = u32Scratch[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  const mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0); // inf or nan
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow to inf
  if (e <= 0) {
    // subnormal half (or zero): shift the mantissa, with its implicit 1, into place
    if (e < -10) return sign;
    const m = mantissa | 0x800000;
    const shift = 14 - e;
    const half = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    const midpoint = 1 << (shift - 1);
    return sign | (half + (rest > midpoint || (rest === midpoint && half & 1) ? 1 : 0));
  }
  const half = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // a carry out of the mantissa correctly bumps the exponent
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

/**
 * The values a tensor's entries are drawn from: 65,536 evenly spaced points of a uniform distribution with mean
 * `mean` and standard deviation `std` (uniform on [mean - std*sqrt(3), mean + std*sqrt(3)]).
 */
function valueTable(mean: number, std: number): Float32Array {
  const table = new Float32Array(65536);
  const halfWidth = std * Math.sqrt(3);
  for (let i = 0; i < 65536; i++) table[i] = mean + halfWidth * (((i + 0.5) / 65536) * 2 - 1);
  return table;
}

const CHUNK_VALUES = 1 << 22; // 4M values per chunk (even, so pairs never straddle chunks): 8 MB in F16, 16 MB in F32

/**
 * Yields `count` values as little-endian F32 or F16 bytes, drawn from the stream named by `seedText`.
 * std 0 gives the constant `mean` (norm weights). Chunks reuse one buffer: consume each before the next.
 */
export function* randomTensorData(
  seedText: string,
  count: number,
  type: WeightType,
  mean: number,
  std: number,
): Generator<Uint8Array> {
  const state = sfc32State(seedText);
  const values = valueTable(mean, std);
  const halves = type === "F16" ? Uint16Array.from(values, toFloat16Bits) : undefined;
  const bytesPerValue = type === "F32" ? 4 : 2;
  // rounded up to whole pairs: an odd count draws once more and leaves the last value unused
  const buffer = new ArrayBuffer(((Math.min(count, CHUNK_VALUES) + 1) & ~1) * bytesPerValue);
  const asPairs = new Uint32Array(buffer);
  const asFloats = new Float32Array(buffer);
  for (let done = 0; done < count; ) {
    const n = Math.min(CHUNK_VALUES, count - done);
    const even = n + (n & 1);
    if (halves) fillHalves(state, asPairs, halves, even);
    else fillFloats(state, asFloats, values, even);
    done += n;
    yield new Uint8Array(buffer, 0, n * bytesPerValue);
  }
}

/**
 * `count` float32 values drawn as `randomTensorData` draws them (same stream for the same `seedText`), in one array:
 * for models that hold their weights in memory (the ONNX embedder). Example: uniformFloats("7/bias", 4, 0, 0.1).
 */
export function uniformFloats(seedText: string, count: number, mean: number, std: number): Float32Array {
  const out = new Float32Array(count + (count & 1));
  fillFloats(sfc32State(seedText), out, valueTable(mean, std), out.length);
  return count & 1 ? out.subarray(0, count) : out;
}
