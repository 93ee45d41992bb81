// Reciprocal rank fusion: merges rankings by rank alone, so BM25's unbounded scores and cosines need no scaling.

/** Cormack, Clarke and Buettcher (2009) found k = 60 works across collections; Elasticsearch and OpenSearch use it too. */
export const RRF_K = 60;

/**
 * Each item scores the sum over the rankings that contain it of 1 / (k + rank), rank counted from 1;
 * an item absent from a ranking gets nothing from it. Returns every item, best first; ties go to the item with
 * the better single rank, then to the one that appears in an earlier ranking, so the result is deterministic.
 *
 * Example with k = 60: rankings [a, b] and [b, c] give b = 1/62 + 1/61, a = 1/61, c = 1/62: order b, a, c.
 * A large k flattens the curve, so agreement between rankings counts more than any single top spot.
 */
export function reciprocalRankFusion<T>(
  rankings: readonly (readonly T[])[],
  k: number = RRF_K,
): { item: T; score: number }[] {
  if (!(k >= 0)) throw new RangeError(`RRF k must be >= 0, got ${k}`);
  // item -> fused score, best rank, and the order it was first seen in.
  const fused = new Map<T, { score: number; best: number; seen: number }>();
  for (const ranking of rankings) {
    ranking.forEach((item, i) => {
      const rank = i + 1;
      const entry = fused.get(item);
      if (entry) {
        entry.score += 1 / (k + rank);
        entry.best = Math.min(entry.best, rank);
      } else {
        fused.set(item, { score: 1 / (k + rank), best: rank, seen: fused.size });
      }
    });
  }
  return [...fused.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.best - b.best || a.seen - b.seen)
    .map(([item, { score }]) => ({ item, score }));
}
