// pyFixed and pyGrouped must print what Python's format() prints (every expected string below came from CPython 3.11).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pyFixed, pyGrouped } from "../../src/python/index.ts";

test('"{:.2f}" rounds the exact binary value half to even, where toFixed rounds a tie up', () => {
  const xs = [0.125, 0.375, 0.625, 123456789.125, 2.675, 1.005, 1.2750000000000001, 1.275];
  assert.deepEqual(
    xs.map((x) => pyFixed(x, 2)),
    ["0.12", "0.38", "0.62", "123456789.12", "2.67", "1.00", "1.28", "1.27"],
  );
  assert.equal((0.125).toFixed(2), "0.13", "JavaScript's own rounding, for contrast");
  assert.deepEqual(
    [0.5, 1.5, 2.5].map((x) => pyFixed(x, 0)),
    ["0", "2", "2"],
  );
});

test('"{:.2f}" keeps the sign of -0, never writes an exponent, and spells the non-finite as Python does', () => {
  assert.deepEqual(
    [-0, -0.001, 0, 5e-324, 2.5].map((x) => pyFixed(x, 2)),
    ["-0.00", "-0.00", "0.00", "0.00", "2.50"],
  );
  assert.equal(pyFixed(1e21, 2), "1000000000000000000000.00");
  assert.equal(pyFixed(1e22 + 2 ** 21, 0), "10000000000000002097152");
  assert.deepEqual(
    [NaN, Infinity, -Infinity].map((x) => pyFixed(x, 2)),
    ["nan", "inf", "-inf"],
  );
});

test('"{:,}" groups an int\'s digits by three', () => {
  assert.deepEqual([0, 999, 1000, -1234567, 2087500, 12345678901234567890n].map(pyGrouped), [
    "0",
    "999",
    "1,000",
    "-1,234,567",
    "2,087,500",
    "12,345,678,901,234,567,890",
  ]);
});
