// Pure arithmetic of the benchmark: medians, busy time as a union of call intervals, harness overhead.

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A span of time in seconds, [start, end]. */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

/**
 * Seconds covered by at least one interval. With parallel sequences the model is busy whenever any call runs, so
 * summing call seconds would count overlapping time twice (and overhead could go negative).
 * Example: unionSeconds([{start: 0, end: 2}, {start: 1, end: 3}, {start: 5, end: 6}]) === 4.
 */
export function unionSeconds(intervals: readonly Interval[]): number {
  const sorted = [...intervals].filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  let total = 0;
  let curStart = Number.NEGATIVE_INFINITY;
  let curEnd = Number.NEGATIVE_INFINITY;
  for (const { start, end } of sorted) {
    if (start > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = start;
      curEnd = end;
    } else if (end > curEnd) curEnd = end;
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}

/** The harness's share of wall time: the fraction during which no model call was running (clamped to [0, 1]). */
export function overheadFraction(wallSeconds: number, busySeconds: number): number {
  if (wallSeconds <= 0) return 0;
  return Math.min(1, Math.max(0, (wallSeconds - busySeconds) / wallSeconds));
}
