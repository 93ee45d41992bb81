// Measures over repeated samples, pure: pass@k and pass^k per question, a question-clustered bootstrap interval,
// and the exact Wilcoxon signed-rank test on paired per-question rates.

/** One question's samples: how many were run, how many succeeded. */
export interface QuestionTally {
  readonly n: number;
  readonly c: number;
}

/**
 * Chen et al. (2021)'s unbiased pass@k for one question: the chance that at least one of k samples drawn without
 * replacement from its n succeeds, 1 - C(n-c, k) / C(n, k), computed as their product form to stay exact in
 * floating point. Example: n = 5, c = 2, k = 2 gives 1 - 3/10 = 0.7.
 */
export function passAtK({ n, c }: QuestionTally, k: number): number {
  checkTally(n, c, k);
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/**
 * pass^k as tau-bench estimates it for one question: the chance that all k samples drawn without replacement
 * succeed, C(c, k) / C(n, k). Example: n = 5, c = 2, k = 2 gives 1/10.
 */
export function passHatK({ n, c }: QuestionTally, k: number): number {
  checkTally(n, c, k);
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return Math.max(0, all);
}

function checkTally(n: number, c: number, k: number): void {
  if (![n, c, k].every(Number.isInteger) || c < 0 || c > n || k < 1 || k > n)
    throw new RangeError(`need integers 0 <= c <= n and 1 <= k <= n, got n ${n}, c ${c}, k ${k}`);
}

/** The mean over questions of a per-question estimate (pass@k, pass^k). */
export function meanOver(tallies: readonly QuestionTally[], estimate: (t: QuestionTally) => number): number {
  if (tallies.length === 0) return Number.NaN;
  return tallies.reduce((sum, t) => sum + estimate(t), 0) / tallies.length;
}

/** The bootstrap's resamples and seed: fixed, so that a table is the same every time it is scored. */
export const BOOTSTRAP_RESAMPLES = 2000;
export const BOOTSTRAP_SEED = 20210707;

/** A mean with a 95% interval. */
export interface MeanInterval {
  readonly mean: number;
  readonly low: number;
  readonly high: number;
}

/**
 * The mean of per-question values (each question's success rate over its samples) with a 95% percentile interval
 * from a bootstrap that resamples questions, not samples: a question's samples move together, so the interval
 * respects that they share the question. Resamples are drawn with mulberry32 from a fixed seed; the bounds are the
 * 2.5th and 97.5th percentiles of the sorted resampled means (index floor(0.025 B) and ceil(0.975 B) - 1).
 */
export function clusteredBootstrap(
  values: readonly number[],
  resamples = BOOTSTRAP_RESAMPLES,
  seed = BOOTSTRAP_SEED,
): MeanInterval {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const next = mulberry32(seed);
  const means: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(next() * n)]!;
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  return { mean, low: means[Math.floor(0.025 * resamples)]!, high: means[Math.ceil(0.975 * resamples) - 1]! };
}

/** mulberry32: a small 32-bit generator whose every step is integer arithmetic, so any language can replay it. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How close two differences are to count as tied (and a difference as zero). */
const TIE = 1e-9;

/** The exact Wilcoxon signed-rank test of paired differences: its statistic and two-sided p-value. */
export interface SignedRankTest {
  /** Differences that are not zero (zeros are dropped, SciPy's zero_method "wilcox"). */
  readonly n: number;
  /** The sum of the ranks of the positive differences (midranks for ties). */
  readonly wPlus: number;
  readonly p: number;
}

/**
 * Exact two-sided Wilcoxon signed-rank test: zeros dropped, |d| ranked with midranks for ties, and under "no
 * difference" every sign pattern of the ranks equally likely; the null distribution of W+ is counted exactly over
 * all 2^n patterns (by a sum over doubled ranks, so midranks stay integers). p = min(1, 2 min(P(W+ <= w), P(W+ >= w))).
 * No nonzero difference: p = 1. Example: differences 1, 2, 3 (all positive) give W+ = 6 and p = 2/8 = 0.25.
 */
export function signedRankExact(differences: readonly number[]): SignedRankTest {
  // Rates' differences are floating point (2/3 - 1/3 is not 1/3): within TIE of each other they are equal.
  const d = differences.filter((x) => Math.abs(x) > TIE);
  const n = d.length;
  if (n === 0) return { n: 0, wPlus: 0, p: 1 };
  const order = d.map((x, i) => ({ a: Math.abs(x), i })).sort((x, y) => x.a - y.a);
  const doubled = new Array<number>(n);
  for (let start = 0; start < n; ) {
    let end = start;
    while (end + 1 < n && order[end + 1]!.a - order[start]!.a <= TIE) end++;
    for (let j = start; j <= end; j++) doubled[order[j]!.i] = start + end + 2; // twice the midrank (1-based)
    start = end + 1;
  }
  const total = doubled.reduce((a, b) => a + b, 0);
  const counts = new Array<bigint>(total + 1).fill(0n);
  counts[0] = 1n;
  let reach = 0;
  for (const r of doubled) {
    for (let s = reach; s >= 0; s--) if (counts[s]! > 0n) counts[s + r] = counts[s + r]! + counts[s]!;
    reach += r;
  }
  const observed = d.reduce((sum, x, i) => (x > 0 ? sum + doubled[i]! : sum), 0);
  let below = 0n;
  let above = 0n;
  for (let s = 0; s <= total; s++) {
    if (s <= observed) below += counts[s]!;
    if (s >= observed) above += counts[s]!;
  }
  const all = 1n << BigInt(n);
  const tail = below < above ? below : above;
  return { n, wPlus: observed / 2, p: Math.min(1, (2 * Number(tail)) / Number(all)) };
}
