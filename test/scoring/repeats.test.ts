// pass@k, pass^k, the clustered bootstrap and the exact signed-rank test against values computed outside the
// project: test/fixtures/make_repeat_references.py (CPython 3.11, standard library only) printed every constant.
import { test } from "node:test";
import assert from "node:assert/strict";
import { clusteredBootstrap, meanOver, passAtK, passHatK, signedRankExact } from "../../src/scoring/repeats.ts";

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual}, expected ${expected}`);

test("pass@k is Chen et al.'s 1 - C(n-c, k)/C(n, k), pass^k tau-bench's C(c, k)/C(n, k)", () => {
  // Hand: n 5, c 2, k 2: C(3,2)/C(5,2) = 3/10 fail, so pass@2 = 0.7; C(2,2)/C(5,2) = 1/10 = pass^2.
  const at: [number, number, number, number][] = [
    [5, 2, 2, 0.7],
    [10, 3, 1, 0.30000000000000004],
    [10, 3, 5, 0.9166666666666666],
    [3, 0, 2, 0],
    [3, 3, 3, 1],
    [8, 1, 8, 1],
  ];
  for (const [n, c, k, v] of at) close(passAtK({ n, c }, k), v, `pass@${k} of ${c}/${n}`);
  const hat: [number, number, number, number][] = [
    [5, 2, 2, 0.1],
    [10, 3, 3, 0.008333333333333333],
    [8, 7, 4, 0.5],
    [3, 3, 3, 1],
    [3, 1, 2, 0],
  ];
  for (const [n, c, k, v] of hat) close(passHatK({ n, c }, k), v, `pass^${k} of ${c}/${n}`);
  // At k = 1 both are the plain success rate.
  close(passAtK({ n: 7, c: 3 }, 1), 3 / 7, "pass@1");
  close(passHatK({ n: 7, c: 3 }, 1), 3 / 7, "pass^1");
  close(
    meanOver(
      [
        { n: 5, c: 2 },
        { n: 5, c: 5 },
      ],
      (t) => passHatK(t, 2),
    ),
    (0.1 + 1) / 2,
    "mean over questions",
  );
  assert.throws(() => passAtK({ n: 3, c: 1 }, 4), RangeError);
  assert.throws(() => passHatK({ n: 3, c: 4 }, 1), RangeError);
});

test("the exact signed-rank test matches an enumeration of every sign pattern, midranks and zeros included", () => {
  const cases: [number[], number, number][] = [
    [[1, 2, 3], 6, 0.25],
    [[0.5, -0.25, 1, 1, 0, 0.75, -1, 0.5, 0.25, 1], 36, 0.12890625],
    [[1 / 3, 2 / 3, 1 / 3, 0, -1 / 3, 1, 2 / 3, 1 / 3, 1 / 3, 0, 1 / 3, -2 / 3], 43.5, 0.125],
  ];
  for (const [d, w, p] of cases) {
    const result = signedRankExact(d);
    assert.equal(result.wPlus, w);
    close(result.p, p, `p of ${d}`);
  }
  // A difference of rates computed in floating point ties with the same difference written exactly.
  assert.deepEqual(signedRankExact([2 / 3 - 1 / 3, 1 / 3, 1 - 2 / 3]), { n: 3, wPlus: 6, p: 0.25 });
  assert.deepEqual(signedRankExact([0, 0]), { n: 0, wPlus: 0, p: 1 });
});

test("the clustered bootstrap replays mulberry32 from its fixed seed: the same interval as the Python replay", () => {
  const a = clusteredBootstrap([1, 0, 1, 1, 0, 1, 0, 1, 1, 1]);
  assert.deepEqual([a.mean, a.low, a.high], [0.7, 0.4, 1]);
  const b = clusteredBootstrap([2 / 3, 1 / 3, 1, 0, 1 / 3, 2 / 3, 1, 1, 0, 1 / 3, 2 / 3, 1]);
  close(b.mean, 0.5833333333333334, "mean");
  close(b.low, 0.36111111111111116, "low");
  close(b.high, 0.7777777777777778, "high");
  assert.deepEqual(clusteredBootstrap([0.5, 0.5, 0.5]), { mean: 0.5, low: 0.5, high: 0.5 });
  assert.ok(Number.isNaN(clusteredBootstrap([]).mean));
});
