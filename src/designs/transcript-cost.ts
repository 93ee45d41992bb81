// The study's side table: what a growing agent transcript costs, with and without prompt caching.
import { floatRepr, pyFixed, pyGrouped } from "../python/index.ts";

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
 * The dollars take the study's float operations in its order: the price per token first (3 / 1e6), then tokens
 * times it, the later turns summed left to right before the first turn's write is added, as CPython 3.11's sum()
 * adds. Dividing by a million last gives other cents: P=1, g=1, $1000 per million, T=50 costs $1.27 that way, $1.28
 * in the study's script.
 * Example: P=5000, g=1500, $3/M, T=5 gives 40,000 tokens, $0.12 uncached, $0.05 cached.
 */
export function transcriptCost(turns: number, a: CostAssumptions): CostRow {
  const { prefix: P, perTurn: g } = a;
  const write = a.cacheWriteFactor ?? 1.25;
  const read = a.cacheReadFactor ?? 0.1;
  const price = a.pricePerMillion / 1e6;
  const tokensRead = turns * P + (g * turns * (turns - 1)) / 2;
  let later = 0;
  for (let t = 2; t <= turns; t++) later += (P + (t - 2) * g) * read + g * write;
  return {
    turns,
    finalContext: P + (turns - 1) * g,
    tokensRead,
    costUncached: tokensRead * price,
    costCached: (P * write + later) * price,
  };
}

export const STUDY_TURNS: readonly number[] = [5, 10, 20, 50];

export function transcriptCostTable(a: CostAssumptions, turns: readonly number[] = STUDY_TURNS): CostRow[] {
  return turns.map((t) => transcriptCost(t, a));
}

/**
 * The cost table as the study's transcript_cost.py printed it, byte for byte: its header line, then the rows, numbers
 * as Python's "{:,}" and "{:.2f}" write them. A whole price prints as the int the study's was ("$3").
 */
export function costTableText(a: CostAssumptions, rows: readonly CostRow[]): string {
  const price = Number.isInteger(a.pricePerMillion) ? String(BigInt(a.pricePerMillion)) : floatRepr(a.pricePerMillion);
  const lines = [
    `prefix ${pyGrouped(a.prefix)} tokens, ${pyGrouped(a.perTurn)} new per turn, $${price} per million input tokens`,
    "| turns | final context | tokens read in all | uncached | cached |",
    "|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.turns} | ${pyGrouped(r.finalContext)} | ${pyGrouped(r.tokensRead)} | ` +
        `$${pyFixed(r.costUncached, 2)} | $${pyFixed(r.costCached, 2)} |`,
    ),
  ];
  return lines.join("\n");
}
