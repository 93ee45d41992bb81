// The closest of some names to a mistyped one, for "did you mean" hints (headings, post slugs).

/** Levenshtein distance, case-insensitive: single-character inserts, deletes and substitutions. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[t.length]!;
}

/**
 * The candidate nearest to `typed`, when it is near enough to be a typo: at most a third of the typed length apart
 * (at least 2 edits allowed). Example: nearest("Prefil and decode", ["Prefill and decode", "Batching"]) gives
 * "Prefill and decode"; nearest("Batching", ["Prefill and decode"]) gives undefined.
 */
export function nearest(typed: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(typed.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(typed, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}
