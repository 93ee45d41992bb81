// The transcript-cost table must give the study's published figures exactly (to the cent).
import { test } from "node:test";
import assert from "node:assert/strict";
import { transcriptCostTable } from "../../src/designs/transcript-cost.ts";

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
