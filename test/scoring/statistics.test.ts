// Wilson intervals, the exact McNemar test and paired comparisons against values computed independently.
// Expected values: Python 3 with SciPy 1.17.1, `binomtest(k, n).proportion_ci(method="wilson")` for Wilson bounds and
// `binomtest(min(b, c), b + c, 0.5).pvalue` for the two-sided exact McNemar p (SciPy's two-sided binomial test equals
// 2 P(X <= min) for p = 1/2, capped at 1); the small ones are also worked by hand in the comments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { binomialHalfCdf, cohensKappa, mcnemarExact, pairedComparison, wilson } from "../../src/scoring/statistics.ts";

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} vs ${expected}`);

test("Wilson 95% bounds match SciPy's", () => {
  const cases: [number, number, number, number][] = [
    [23, 30, 0.5907167384187784, 0.8820761185551049],
    [17, 30, 0.3919730700081361, 0.7262251442353347],
    [3, 30, 0.034599888747334176, 0.2562108257918408],
    [0, 30, 0, 0.11351339317396875],
    [30, 30, 0.8864866068260312, 1],
    [1, 1, 0.20654931437723745, 1],
    [8, 10, 0.4901624715366418, 0.9433178485456248],
    [2, 10, 0.056682151454375274, 0.5098375284633583],
  ];
  for (const [k, n, low, high] of cases) {
    const w = wilson(k, n);
    assert.equal(w.k, k);
    assert.equal(w.n, n);
    close(w.low, low, `low ${k}/${n}`);
    close(w.high, high, `high ${k}/${n}`);
  }
});

test("Wilson with no runs knows nothing, and rejects impossible counts", () => {
  assert.deepEqual(wilson(0, 0), { k: 0, n: 0, low: 0, high: 1 });
  assert.throws(() => wilson(5, 3), RangeError);
  assert.throws(() => wilson(-1, 3), RangeError);
  assert.throws(() => wilson(1.5, 3), RangeError);
});

test("exact McNemar p-values", () => {
  // By hand: b=1, c=9: 2 * (C(10,0) + C(10,1)) / 2^10 = 2 * 11 / 1024.
  assert.equal(mcnemarExact(1, 9), 0.021484375);
  assert.equal(mcnemarExact(9, 1), 0.021484375);
  // No discordant pairs: nothing to test.
  assert.equal(mcnemarExact(0, 0), 1);
  // By hand: b=7, c=1: 2 * (C(8,0) + C(8,1)) / 2^8 = 2 * 9 / 256.
  assert.equal(mcnemarExact(7, 1), 0.0703125);
  // By hand: 2 / 2^10.
  assert.equal(mcnemarExact(10, 0), 0.001953125);
  // 2 * P(X <= 0) = 2 * 1/2 = 1, and balanced counts cap at 1.
  assert.equal(mcnemarExact(0, 1), 1);
  assert.equal(mcnemarExact(3, 3), 1);
  assert.equal(mcnemarExact(1, 4), 0.375);
  close(mcnemarExact(40, 60), 0.05688793364098089, "40/60");
  close(mcnemarExact(500, 560), 0.06990955946026937, "500/560");
  // Past the double range of 2^n: 1500 and 4100 discordant pairs.
  close(mcnemarExact(700, 800), 0.010559255466711506, "700/800");
  close(mcnemarExact(2000, 2100), 0.12206497999113655, "2000/2100");
});

test("the binomial tail is exact for small n", () => {
  assert.equal(binomialHalfCdf(0, 1), 0.5);
  assert.equal(binomialHalfCdf(2, 4), 11 / 16);
  assert.equal(binomialHalfCdf(4, 4), 1);
});

test("a paired comparison pairs by question id and lists the flips", () => {
  const ids = ["q01", "q02", "q03", "q04", "q05", "q06", "q07", "q08", "q09", "q10"];
  // a succeeds on q01-q08, b on q01 and q09: a only on q02-q08 (7), b only on q09 (1).
  const a = new Map(ids.map((id, i) => [id, i < 8]));
  const b = new Map(ids.map((id) => [id, id === "q01" || id === "q09"]));
  b.set("q11", true); // only on one side: left out
  const result = pairedComparison(a, b);
  assert.deepEqual(result.a_only, ["q02", "q03", "q04", "q05", "q06", "q07", "q08"]);
  assert.deepEqual(result.b_only, ["q09"]);
  assert.deepEqual(result.unpaired, ["q11"]);
  assert.equal(result.p, 0.0703125);
  assert.equal(result.a.k, 8);
  assert.equal(result.b.k, 2);
  assert.equal(result.a.n, 10);
  assert.equal(result.b.n, 10);
  close(result.a.low, 0.4901624715366418, "a low");
  close(result.b.high, 0.5098375284633583, "b high");
});

test("Cohen's kappa against hand-computed values, and its convention for one class", () => {
  const kappa = (yes_yes: number, yes_no: number, no_yes: number, no_no: number) =>
    cohensKappa({ yes_yes, yes_no, no_yes, no_no });
  // By hand, n = 50: p_o = 35/50 = 0.7; p_e = (25*30 + 25*20) / 2500 = 0.5; (0.7 - 0.5) / (1 - 0.5) = 0.4.
  close(kappa(20, 5, 10, 15)!, 0.4, "20 5 10 15");
  // n = 100: p_o = 0.6; p_e = (60*70 + 40*30) / 10000 = 0.54; 0.06 / 0.46.
  close(kappa(45, 15, 25, 15)!, 0.06 / 0.46, "45 15 25 15");
  // n = 100: p_o = 0.6; p_e = (60*30 + 40*70) / 10000 = 0.46; 0.14 / 0.54.
  close(kappa(25, 35, 5, 35)!, 0.14 / 0.54, "25 35 5 35");
  // Agreement on every item, both classes used: 1; disagreement on every item: p_o = 0, p_e = 0.5, so -1.
  assert.equal(kappa(3, 0, 0, 2), 1);
  assert.equal(kappa(0, 2, 2, 0), -1);
  // One rater says yes to all five, the other to three: p_o = 0.6 = p_e = (5*3 + 0*2) / 25, so 0.
  assert.equal(kappa(3, 2, 0, 0), 0);
  // Each rater constant and opposite: p_o = 0 = p_e, so 0.
  assert.equal(kappa(0, 4, 0, 0), 0);
  // Both raters put every item in one class (p_e = 1), or no item at all: undefined, as the convention says.
  assert.equal(kappa(5, 0, 0, 0), null);
  assert.equal(kappa(0, 0, 0, 7), null);
  assert.equal(kappa(0, 0, 0, 0), null);
  assert.throws(() => kappa(-1, 0, 0, 0), RangeError);
  assert.throws(() => kappa(1.5, 0, 0, 0), RangeError);
});
