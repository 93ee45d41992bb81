// The cost chart's markers: moved sideways by whole widths until none overlaps another, heights kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { placeMarkers } from "../../src/report/svg-charts.ts";

test("three markers on one spot spread to x, x + 20 and x - 20", () => {
  const at = { x: 100, y: 50 };
  assert.deepEqual(placeMarkers([at, at, at], 9, 0, 400), [
    { x: 100, y: 50 },
    { x: 120, y: 50 },
    { x: 80, y: 50 },
  ]);
});

test("markers far apart stay where they are; heights never move; the plot's edge is respected", () => {
  const points = [
    { x: 10, y: 10 },
    { x: 200, y: 10 },
    { x: 10, y: 100 },
    { x: 12, y: 12 },
  ];
  const placed = placeMarkers(points, 9, 0, 400);
  assert.deepEqual(placed.slice(0, 3), points.slice(0, 3));
  assert.equal(placed[3]!.y, 12);
  assert.ok(placed[3]!.x >= 9, "not pushed past the left edge");
  for (const [i, a] of placed.entries())
    for (const b of placed.slice(i + 1)) assert.ok(Math.hypot(a.x - b.x, a.y - b.y) >= 19.99);
});
