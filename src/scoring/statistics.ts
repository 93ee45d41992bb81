// Small-sample statistics for 30 questions: Wilson intervals and the exact McNemar test on paired runs.

/** The 97.5th percentile of the standard normal: a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

/** k successes of n, with a Wilson score interval. */
export interface Proportion {
  readonly k: number;
  readonly n: number;
  readonly low: number;
  readonly high: number;
}

/**
 * Wilson score interval (no continuity correction). Unlike the normal approximation it stays inside [0, 1]
 * and is not zero-width at 0/n or n/n, which is where small models often sit.
 * Example: wilson(23, 30) = {low: 0.5907, high: 0.8821}. With n = 0 nothing is known: [0, 1].
 */
export function wilson(k: number, n: number, z = Z_95): Proportion {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n)
    throw new RangeError(`wilson(${k}, ${n}): need 0 <= k <= n, integers`);
  if (n === 0) return { k, n, low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // subtle: at k = 0 or k = n the bound is exactly 0 or 1 in exact arithmetic; clamp away rounding.
  return { k, n, low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half) };
}

/**
 * Exact two-sided McNemar test: of the b + c discordant pairs, under "no difference" each is equally likely to
 * go either way, so min(b, c) ~ Bin(b + c, 1/2); p = min(1, 2 P(X <= min(b, c))). No discordant pairs: p = 1.
 * Example: b = 1, c = 9 gives 2 * (1 + 10) / 1024 = 0.021484375.
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new RangeError(`mcnemarExact(${b}, ${c}): need counts`);
  const n = b + c;
  if (n === 0) return 1;
  return Math.min(1, 2 * binomialHalfCdf(Math.min(b, c), n));
}

/**
 * The fewest discordant pairs that can give mcnemarExact below `alpha`: all of them one way. Example: 6 for 0.05
 * (2 / 2^6 = 0.031; five one way give 0.0625). No difference over fewer flipped questions can be significant.
 */
export function fewestSignificantFlips(alpha = 0.05): number {
  let flips = 1;
  while (mcnemarExact(0, flips) >= alpha) flips++;
  return flips;
}

/** P(X <= k) for X ~ Bin(n, 1/2), computed with exact integers: sum of C(n, i) for i <= k, over 2^n. */
export function binomialHalfCdf(k: number, n: number): number {
  let term = 1n;
  let total = 1n;
  for (let i = 1; i <= k; i++) {
    term = (term * BigInt(n - i + 1)) / BigInt(i); // exact: C(n, i-1) * (n-i+1) is divisible by i
    total += term;
  }
  return bigRatio(total, 1n << BigInt(n));
}

/** num / den as a double, when either is past the double range (n > 1023). */
function bigRatio(num: bigint, den: bigint): number {
  const excess = den.toString(2).length - 1000;
  if (excess <= 0) return Number(num) / Number(den);
  const shift = BigInt(excess);
  return Number(num >> shift) / Number(den >> shift);
}

/** Two designs (or models) on the same questions, for one yes/no measure. */
export interface PairedComparison {
  readonly a: Proportion;
  readonly b: Proportion;
  /** Questions where only b succeeded (b's gains over a), in a's order. */
  readonly b_only: readonly string[];
  /** Questions where only a succeeded. */
  readonly a_only: readonly string[];
  /** Exact McNemar p-value on the discordant pairs. */
  readonly p: number;
  /** Questions present on one side only, left out of everything above. */
  readonly unpaired: readonly string[];
}

/**
 * Pairs two sets of outcomes by question id. Only questions answered on both sides are compared, so both
 * proportions are over the same n (an interrupted run's missing questions are listed in `unpaired`).
 */
export function pairedComparison(a: ReadonlyMap<string, boolean>, b: ReadonlyMap<string, boolean>): PairedComparison {
  const shared = [...a.keys()].filter((id) => b.has(id));
  const unpaired = [...[...a.keys()].filter((id) => !b.has(id)), ...[...b.keys()].filter((id) => !a.has(id))];
  const aOnly = shared.filter((id) => a.get(id) && !b.get(id));
  const bOnly = shared.filter((id) => !a.get(id) && b.get(id));
  const ka = shared.filter((id) => a.get(id)).length;
  const kb = shared.filter((id) => b.get(id)).length;
  return {
    a: wilson(ka, shared.length),
    b: wilson(kb, shared.length),
    b_only: bOnly,
    a_only: aOnly,
    p: mcnemarExact(aOnly.length, bOnly.length),
    unpaired,
  };
}

/**
 * Two raters' yes/no verdicts on the same items, counted: `yes_yes` both said yes, `yes_no` the first said yes and
 * the second no, and so on.
 */
export interface AgreementTable {
  readonly yes_yes: number;
  readonly yes_no: number;
  readonly no_yes: number;
  readonly no_no: number;
}

/**
 * Cohen's kappa, (p_o - p_e) / (1 - p_e): the raters' agreement beyond what their own rates of yes would give by
 * chance. With a, b, c, d the four cells it is 2(ad - bc) / ((a + b)(b + d) + (a + c)(c + d)), computed from the
 * integer counts. Convention: null (undefined) when there is no item, and when both raters put every item in the same
 * one class (p_e = 1: the ratio is 0/0; agreement there says nothing about the raters). A rater who says the same
 * thing of every item while the other does not gives 0. Examples: a, b, c, d = 20, 5, 10, 15 gives 0.4; 3, 0, 0, 2
 * gives 1; 0, 2, 2, 0 gives -1.
 */
export function cohensKappa(t: AgreementTable): number | null {
  const cells = [t.yes_yes, t.yes_no, t.no_yes, t.no_no];
  if (!cells.every((x) => Number.isInteger(x) && x >= 0))
    throw new RangeError(`cohensKappa(${cells.join(", ")}): need counts`);
  const [a, b, c, d] = cells as [number, number, number, number];
  const denominator = (a + b) * (b + d) + (a + c) * (c + d);
  if (denominator === 0) return null;
  return (2 * (a * d - b * c)) / denominator;
}
