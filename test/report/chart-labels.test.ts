// Where lettered labels go: on their point when that hides nothing else, otherwise nearby, inside the plot, clear
// of every dot, whisker and other label; and circles big enough for their letters.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MARK_FONT, markRadius, placeLabels, type LabelPoint } from "../../src/report/chart-labels.ts";

const PLOT = { left: 0, right: 400, top: 0, bottom: 200 };
const R = 8;
const DOT = 3;

test("a circle holds its longest mark: bold capitals up to 1.1 em wide each, 0.75 em tall", () => {
  for (const marks of [["W"], ["W", "WC"], ["ABC"]]) {
    const n = Math.max(...marks.map((m) => m.length));
    const r = markRadius(marks);
    assert.ok(Math.hypot((n * 1.1 * MARK_FONT) / 2, (0.75 * MARK_FONT) / 2) <= r - 0.5, `${marks} in ${r}`);
  }
  assert.ok(markRadius(["W", "WC"]) > markRadius(["W", "A"]), "a two-letter mark gets a bigger circle");
});

test("two points on one spot: neither label may hide the other's dot, so both move, the first straight above", () => {
  const at = { x: 100, y: 100 };
  const [a, b] = placeLabels([at, at], R, DOT, PLOT);
  assert.deepEqual([a!.onPoint, b!.onPoint], [false, false]);
  assert.ok(Math.abs(a!.x - at.x) < 1e-9 && a!.y < at.y, "straight above");
  for (const l of [a!, b!]) {
    assert.ok(Math.hypot(l.x - at.x, l.y - at.y) >= R + DOT, "clear of the dot");
    assert.ok(Math.hypot(l.x - at.x, l.y - at.y) <= 3 * R, "and close to it");
  }
  assert.ok(Math.hypot(b!.x - a!.x, b!.y - a!.y) >= 2 * R, "clear of each other");
});

test("labels stay clear of other points' dots and whiskers and of each other, inside the plot", () => {
  // A row of points on the bottom edge, each with a whisker up, and one point right on another's whisker.
  const points: LabelPoint[] = [
    ...[100, 104, 108, 112, 116].map((x) => ({ x, y: 200, whisker: [200, 160] as const })),
    { x: 300, y: 120, whisker: [150, 90] as const },
    { x: 300, y: 100, whisker: [130, 70] as const },
    { x: 200, y: 50, whisker: [80, 20] as const },
  ];
  const placed = placeLabels(points, R, DOT, PLOT);
  for (const [i, l] of placed.entries()) {
    if (!l.onPoint) {
      assert.ok(l.x >= PLOT.left + R && l.x <= PLOT.right - R && l.y >= PLOT.top + R && l.y <= PLOT.bottom - R);
    } else assert.deepEqual([l.x, l.y], [points[i]!.x, points[i]!.y]);
    for (const [j, p] of points.entries()) {
      if (j === i && l.onPoint) continue;
      assert.ok(Math.hypot(l.x - p.x, l.y - p.y) >= R + DOT, `label ${i} covers dot ${j}`);
      // The whisker as drawn: a stem 1.5 px wide, and a cap 8 px wide at each end.
      const [lo, hi] = [Math.min(...p.whisker!), Math.max(...p.whisker!)];
      const stem = Math.hypot(Math.max(Math.abs(l.x - p.x) - 0.75, 0), Math.max(lo - l.y, 0, l.y - hi));
      const cap = Math.min(...[lo, hi].map((y) => Math.hypot(Math.max(Math.abs(l.x - p.x) - 4, 0), l.y - y)));
      assert.ok(Math.min(stem, cap) >= R, `label ${i} covers whisker ${j}`);
    }
    for (const m of placed.slice(i + 1)) assert.ok(Math.hypot(l.x - m.x, l.y - m.y) >= 2 * R);
  }
  assert.deepEqual(
    placed.map((l) => l.onPoint),
    [false, false, false, false, false, false, false, true],
    "a label that would hide another point's dot or whisker moves; the point alone keeps its label",
  );
});

test("a point alone keeps its label on it", () => {
  assert.deepEqual(placeLabels([{ x: 50, y: 50, whisker: [70, 30] }], R, DOT, PLOT), [{ x: 50, y: 50, onPoint: true }]);
});
