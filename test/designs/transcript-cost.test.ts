// The transcript-cost table must give the study's published figures exactly (to the cent), and print as the study's
// script printed it for any parameters: every expected text below is what test/fixtures/transcript_cost.py printed
// with CPython 3.11 for the parameters beside it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { costTableText, transcriptCostTable, type CostAssumptions } from "../../src/designs/transcript-cost.ts";

test("reproduces the study's table for P=5000, g=1500, $3 per million", () => {
  const rows = transcriptCostTable({ prefix: 5000, perTurn: 1500, pricePerMillion: 3 });
  const printed = rows.map((r) => [
    r.turns,
    r.finalContext,
    r.tokensRead,
    r.costUncached.toFixed(2),
    r.costCached.toFixed(2),
  ]);
  assert.deepEqual(printed, [
    [5, 11000, 40000, "0.12", "0.05"],
    [10, 18500, 117500, "0.35", "0.10"],
    [20, 33500, 385000, "1.16", "0.23"],
    [50, 78500, 2087500, "6.26", "0.90"],
  ]);
});

test("one turn reads the prefix once and writes it once to the cache", () => {
  const [row] = transcriptCostTable({ prefix: 1_000_000, perTurn: 7, pricePerMillion: 2 }, [1]);
  assert.equal(row?.tokensRead, 1_000_000);
  assert.equal(row?.costUncached, 2);
  assert.equal(row?.costCached, 2.5);
});

/** `python3 test/fixtures/transcript_cost.py P g PRICE` for each [P, g, PRICE]. */
const PRINTED: readonly (readonly [number, number, number, string])[] = [
  [
    5000,
    1500,
    3,
    "prefix 5,000 tokens, 1,500 new per turn, $3 per million input tokens\n| turns | final context | tokens read in all | uncached | cached |\n|---|---|---|---|---|\n| 5 | 11,000 | 40,000 | $0.12 | $0.05 |\n| 10 | 18,500 | 117,500 | $0.35 | $0.10 |\n| 20 | 33,500 | 385,000 | $1.16 | $0.23 |\n| 50 | 78,500 | 2,087,500 | $6.26 | $0.90 |",
  ],
  // tokens * price / 1e6 gives $1.27 at 50 turns
  [
    1,
    1,
    1000,
    "prefix 1 tokens, 1 new per turn, $1000 per million input tokens\n| turns | final context | tokens read in all | uncached | cached |\n|---|---|---|---|---|\n| 5 | 5 | 15 | $0.01 | $0.01 |\n| 10 | 10 | 55 | $0.06 | $0.02 |\n| 20 | 20 | 210 | $0.21 | $0.04 |\n| 50 | 50 | 1,275 | $1.28 | $0.18 |",
  ],
  // $0.625 exactly at 5 turns: a tie, which toFixed rounds up to $0.63
  [
    1,
    0,
    125000,
    "prefix 1 tokens, 0 new per turn, $125000 per million input tokens\n| turns | final context | tokens read in all | uncached | cached |\n|---|---|---|---|---|\n| 5 | 1 | 5 | $0.62 | $0.21 |\n| 10 | 1 | 10 | $1.25 | $0.27 |\n| 20 | 1 | 20 | $2.50 | $0.39 |\n| 50 | 1 | 50 | $6.25 | $0.77 |",
  ],
  // tokens * price / 1e6 gives $220098.61 at 20 turns
  [
    9303,
    388,
    847250,
    "prefix 9,303 tokens, 388 new per turn, $847250 per million input tokens\n| turns | final context | tokens read in all | uncached | cached |\n|---|---|---|---|---|\n| 5 | 10,855 | 50,395 | $42697.16 | $14846.15 |\n| 10 | 12,795 | 110,490 | $93612.65 | $21827.91 |\n| 20 | 16,675 | 259,780 | $220098.60 | $38256.94 |\n| 50 | 28,315 | 940,450 | $796796.26 | $107267.99 |",
  ],
  // a price that is not whole prints as a Python float
  [
    1234567,
    89,
    2.5,
    "prefix 1,234,567 tokens, 89 new per turn, $2.5 per million input tokens\n| turns | final context | tokens read in all | uncached | cached |\n|---|---|---|---|---|\n| 5 | 1,234,923 | 6,173,725 | $15.43 | $5.09 |\n| 10 | 1,235,368 | 12,349,675 | $30.87 | $6.64 |\n| 20 | 1,236,258 | 24,708,250 | $61.77 | $9.73 |\n| 50 | 1,238,928 | 61,837,375 | $154.59 | $19.02 |",
  ],
];

test("the table prints byte for byte as the study's script printed it, header included", () => {
  for (const [prefix, perTurn, pricePerMillion, expected] of PRINTED) {
    const a: CostAssumptions = { prefix, perTurn, pricePerMillion };
    assert.equal(costTableText(a, transcriptCostTable(a)), expected, `P=${prefix}, g=${perTurn}, $${pricePerMillion}`);
  }
});
