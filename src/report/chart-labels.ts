// Lettered labels on a chart: how big a label's circle must be for its letters, and where each label goes (on its
// point where that hides nothing else, otherwise in the nearest free place, joined to the point by a leader line).

/** The labels' font size in px. */
export const MARK_FONT = 9;
/**
 * The width of the widest capital as a share of the font size: W in DejaVu Sans Bold (the page's sans-serif on
 * Debian) is 1.1 em, so n letters of any capitals take at most 1.1 n em. Capitals stand 0.73 em tall there.
 */
const GLYPH_EM = 1.1;
const CAP_EM = 0.75;

/**
 * The radius of a circle that holds the longest of `marks` (as bold capitals at MARK_FONT) with half a pixel to
 * spare, never under 8: "W" gets 8, "WC" 11.
 */
export function markRadius(marks: readonly string[]): number {
  const letters = Math.max(1, ...marks.map((m) => m.length));
  const half = Math.hypot((letters * GLYPH_EM * MARK_FONT) / 2, (CAP_EM * MARK_FONT) / 2);
  return Math.max(8, Math.ceil(half + 0.5));
}

/** The text baseline that centres capitals on cy. */
export function markBaseline(cy: number): number {
  return cy + (CAP_EM * MARK_FONT) / 2;
}

export interface LabelPoint {
  readonly x: number;
  readonly y: number;
  /** The point's whisker, drawn at x between these two heights (px); none for a point without an interval. */
  readonly whisker?: readonly [number, number];
}

export interface PlotBox {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** A label's centre, and whether it sits on its point (otherwise a leader line joins them). */
export interface PlacedLabel {
  readonly x: number;
  readonly y: number;
  readonly onPoint: boolean;
}

/** Half a whisker cap's width, in px (as the charts draw them). */
export const CAP_HALF = 4;
/** Free space kept between a label and anything else, px. */
const GAP = 2;

type Shape =
  | { readonly kind: "circle"; readonly x: number; readonly y: number; readonly r: number }
  | { readonly kind: "rect"; readonly x1: number; readonly y1: number; readonly x2: number; readonly y2: number }
  | { readonly kind: "segment"; readonly x1: number; readonly y1: number; readonly x2: number; readonly y2: number };

interface Owned {
  readonly owner: number;
  readonly shape: Shape;
  /** Labels are the one thing no other label may ever overlap, even when nothing else is free. */
  readonly label: boolean;
}

/**
 * Label circles of radius r for points whose dots (radius dotR) stay exactly at their values. A label sits on its
 * point when it covers no other point's dot, whisker or label there. The rest go, in the order given, to the
 * nearest place inside `plot` that covers no dot, whisker, label or leader line, their own whisker included (where
 * none is left, no label). A place whose leader would cross another point's whisker counts as farther, and one
 * whose leader would cross a label or another dot, or run along its own whisker, as much farther. Points that are
 * free are placed first, so that a moved label never takes a free point's place. Example: two points at one spot,
 * r 8, dot 3: neither label may hide the other's dot, so the first goes straight above the spot, 17 px up
 * (r + dot + 6), and the second to its right, 17 px away and a little up.
 */
export function placeLabels(points: readonly LabelPoint[], r: number, dotR: number, plot: PlotBox): PlacedLabel[] {
  const fixed: Owned[] = points.flatMap((p, i) => [
    { owner: i, label: false, shape: { kind: "circle", x: p.x, y: p.y, r: dotR } as const },
    ...whiskerShapes(p).map((shape) => ({ owner: i, label: false, shape })),
  ]);
  const placed: (PlacedLabel | undefined)[] = points.map(() => undefined);
  const taken: Owned[] = [];
  const take = (i: number, at: PlacedLabel) => {
    placed[i] = at;
    taken.push({ owner: i, label: true, shape: { kind: "circle", x: at.x, y: at.y, r } });
    const p = points[i]!;
    if (!at.onPoint)
      taken.push({ owner: i, label: false, shape: { kind: "segment", x1: p.x, y1: p.y, x2: at.x, y2: at.y } });
  };
  // On its point: nothing of another point's under the label.
  points.forEach((p, i) => {
    const others = [...fixed, ...taken].filter((o) => o.owner !== i);
    if (others.every((o) => !hits(o.shape, p.x, p.y, r + GAP))) take(i, { x: p.x, y: p.y, onPoint: true });
  });
  points.forEach((p, i) => {
    if (placed[i] !== undefined) return;
    const candidates = offsets(p, r, dotR, plot);
    const all = [...fixed, ...taken];
    const clear = (c: { x: number; y: number }, of: (o: Owned) => boolean) =>
      all.every((o) => !of(o) || !hits(o.shape, c.x, c.y, r + GAP));
    // A place where the label covers nothing, else one where it covers no other label; of those, the one whose
    // distance plus leader cost is least (candidates come nearest first, so the search stops past that).
    const tier = candidates.some((c) => clear(c, () => true)) ? () => true : (o: Owned) => o.label;
    const obstacles = leaderObstacles(p, all);
    let spot: { x: number; y: number } | undefined;
    let best = Number.POSITIVE_INFINITY;
    for (const c of candidates) {
      const d = Math.hypot(c.x - p.x, c.y - p.y);
      if (d >= best) break;
      if (!clear(c, tier)) continue;
      const cost = d + leaderCost(i, p, c, r, dotR, obstacles, best - d);
      if (cost < best) [spot, best] = [c, cost];
    }
    take(i, spot === undefined ? { x: p.x, y: p.y, onPoint: true } : { ...spot, onPoint: false });
  });
  return placed as PlacedLabel[];
}

/** A whisker as the charts draw it: a stem 1.5 px wide and a cap at each end. */
function whiskerShapes(p: LabelPoint): Shape[] {
  if (p.whisker === undefined) return [];
  const [a, b] = [Math.min(...p.whisker), Math.max(...p.whisker)];
  const cap = (y: number): Shape => ({ kind: "rect", x1: p.x - CAP_HALF, y1: y - 1, x2: p.x + CAP_HALF, y2: y + 1 });
  return [{ kind: "rect", x1: p.x - 1, y1: a, x2: p.x + 1, y2: b }, cap(a), cap(b)];
}

/**
 * Places around p, nearest first: rings from just clear of its dot outwards in steps of half a label, each ring's
 * directions starting straight up and alternating to either side, every centre inside the plot by r.
 */
function offsets(p: LabelPoint, r: number, dotR: number, plot: PlotBox): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  const far = Math.hypot(plot.right - plot.left, plot.bottom - plot.top);
  for (let d = r + dotR + 6; d <= far; d += r / 2) {
    const n = Math.max(12, Math.ceil((2 * Math.PI * d) / r));
    for (let k = 0; k < n; k++) {
      const turn = Math.ceil(k / 2) * (k % 2 === 1 ? 1 : -1);
      const angle = -Math.PI / 2 + (turn * 2 * Math.PI) / n;
      const c = { x: p.x + d * Math.cos(angle), y: p.y + d * Math.sin(angle) };
      if (c.x >= plot.left + r && c.x <= plot.right - r && c.y >= plot.top + r && c.y <= plot.bottom - r) out.push(c);
    }
  }
  return out;
}

/**
 * What a leader's crossings cost, in px of distance: another point's whisker 40 each; a label, another dot or its
 * own whisker (along which it would run) 1000.
 */
const CROSSES_WHISKER = 40;
const CROSSES_MARK = 1000;

/** What a leader from p's dot may cross: every dot, whisker and label but a dot that sits on p's own. */
function leaderObstacles(p: LabelPoint, all: readonly Owned[]): Owned[] {
  return all.filter(
    (o) => o.shape.kind !== "segment" && !(o.shape.kind === "circle" && !o.label && hits(o.shape, p.x, p.y, 0.5)),
  );
}

/**
 * The cost of a leader from p's dot to the label at c: what it crosses, checked every pixel along it from just
 * beyond the caps of whiskers that end at the dot. Once the cost reaches `budget` (what would make this place no
 * better than the best so far) the walk stops and returns what it has: only a cost under the budget matters.
 */
function leaderCost(
  i: number,
  p: LabelPoint,
  c: { x: number; y: number },
  r: number,
  dotR: number,
  obstacles: readonly Owned[],
  budget: number,
): number {
  const length = Math.hypot(c.x - p.x, c.y - p.y);
  // Only what lies within half a pixel of the leader's box can be crossed: the walk tests nothing else.
  const [left, right] = [Math.min(p.x, c.x) - 0.5, Math.max(p.x, c.x) + 0.5];
  const [top, bottom] = [Math.min(p.y, c.y) - 0.5, Math.max(p.y, c.y) + 0.5];
  const near = obstacles.filter((o) => {
    const b = bounds(o.shape);
    return b.x2 >= left && b.x1 <= right && b.y2 >= top && b.y1 <= bottom;
  });
  const whiskersCrossed = new Set<number>();
  let marks = false;
  const cost = () => whiskersCrossed.size * CROSSES_WHISKER + (marks ? CROSSES_MARK : 0);
  if (near.length === 0) return 0;
  for (let d = Math.max(dotR, CAP_HALF) + 1; d <= length - r; d += 1) {
    const [x, y] = [p.x + ((c.x - p.x) * d) / length, p.y + ((c.y - p.y) * d) / length];
    for (const o of near) {
      if (!hits(o.shape, x, y, 0.5)) continue;
      if (o.shape.kind === "circle" || o.owner === i) marks = true;
      else if (o.shape.kind === "rect") whiskersCrossed.add(o.owner);
    }
    if (cost() >= budget) break;
  }
  return cost();
}

/** A shape's bounding box. */
function bounds(s: Shape): { x1: number; y1: number; x2: number; y2: number } {
  switch (s.kind) {
    case "circle":
      return { x1: s.x - s.r, y1: s.y - s.r, x2: s.x + s.r, y2: s.y + s.r };
    default:
      return { x1: Math.min(s.x1, s.x2), y1: Math.min(s.y1, s.y2), x2: Math.max(s.x1, s.x2), y2: Math.max(s.y1, s.y2) };
  }
}

/** Whether a circle at (x, y) of radius r touches the shape. */
function hits(s: Shape, x: number, y: number, r: number): boolean {
  switch (s.kind) {
    case "circle":
      return Math.hypot(s.x - x, s.y - y) < s.r + r;
    case "rect": {
      const dx = Math.max(s.x1 - x, 0, x - s.x2);
      const dy = Math.max(s.y1 - y, 0, y - s.y2);
      return Math.hypot(dx, dy) < r;
    }
    case "segment":
      return segmentDistance(x, y, s.x1, s.y1, s.x2, s.y2) < r;
  }
}

/** The distance from (x, y) to the segment from (x1, y1) to (x2, y2). */
function segmentDistance(x: number, y: number, x1: number, y1: number, x2: number, y2: number): number {
  const [dx, dy] = [x2 - x1, y2 - y1];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / length2));
  return Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy));
}
