// The study's side table: what a growing agent transcript costs, with and without prompt caching.

export interface CostAssumptions {
  /** Tokens in the fixed prefix (system prompt, tools, question). */
  readonly prefix: number;
  /** New tokens each turn adds to the transcript. */
  readonly perTurn: number;
  /** Dollars per million input tokens. */
  readonly pricePerMillion: number;
  /** Cache writes cost this times the base price (1.25 in the study). */
  readonly cacheWriteFactor?: number;
  /** Cache reads cost this times the base price (0.1 in the study). */
  readonly cacheReadFactor?: number;
}

export interface CostRow {
  readonly turns: number;
  readonly finalContext: number;
  readonly tokensRead: number;
  readonly costUncached: number;
  readonly costCached: number;
}

/**
 * Turn t reads P + (t-1)g tokens, so T turns read TP + gT(T-1)/2.
 * Cached: turn 1 writes P; each later turn t reads P + (t-2)g from the cache and writes its g new tokens.
 * Example: P=5000, g=1500, $3/M, T=5 gives 40,000 tokens, $0.12 uncached, $0.05 cached.
 */
export function transcriptCost(turns: number, a: CostAssumptions): CostRow {
  const { prefix: P, perTurn: g } = a;
  const write = a.cacheWriteFactor ?? 1.25;
  const read = a.cacheReadFactor ?? 0.1;
  const dollars = (tokens: number) => (tokens * a.pricePerMillion) / 1_000_000;
  const tokensRead = turns * P + (g * turns * (turns - 1)) / 2;
  let cachedTokens = P * write;
  for (let t = 2; t <= turns; t++) cachedTokens += (P + (t - 2) * g) * read + g * write;
  return {
    turns,
    finalContext: P + (turns - 1) * g,
    tokensRead,
    costUncached: dollars(tokensRead),
    costCached: dollars(cachedTokens),
  };
}

export const STUDY_TURNS: readonly number[] = [5, 10, 20, 50];

export function transcriptCostTable(a: CostAssumptions, turns: readonly number[] = STUDY_TURNS): CostRow[] {
  return turns.map((t) => transcriptCost(t, a));
}
