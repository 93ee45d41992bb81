// A run's time estimate: the plan's expected calls and tokens at the warm-up's speeds, and the CPU's warning.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpuHoursNote, estimateSeconds, expectedLoad, warmUpLine } from "../../src/runs/run-estimate.ts";

test("the expected work per run is the study's published calls and tokens read, per design", () => {
  assert.deepEqual(expectedLoad("workflow"), { calls: 1, tokensRead: 427 });
  assert.deepEqual(expectedLoad("agent-forced"), { calls: 2, tokensRead: 1030 });
});

test("the estimate is every prompt token at the prompt speed and every reply at --max-new-tokens", () => {
  const speed = { promptTokensPerSecond: 100, decodeTokensPerSecond: 10 };
  // 30 workflow runs: 427 / 100 + 200 / 10 = 24.27 s each
  assert.ok(Math.abs(estimateSeconds([{ design: "workflow", runs: 30 }], speed, 200) - 30 * 24.27) < 1e-9);
  // a model twice the size takes twice as long
  const one = estimateSeconds([{ design: "agent-forced", runs: 30 }], speed, 200);
  assert.ok(Math.abs(estimateSeconds([{ design: "agent-forced", runs: 30 }], speed, 200, 2) - 2 * one) < 1e-9);
});

test("the warm-up's line and the CPU's warning say their figures", () => {
  assert.equal(
    warmUpLine("m.gguf", {
      promptTokens: 256,
      promptTokensPerSecond: 1234.4,
      decodeTokens: 16,
      decodeTokensPerSecond: 45.61,
    }),
    "warm-up on m.gguf: prompt 1,234 tokens/s, decode 45.6 tokens/s (a 256-token prompt, 16 new tokens)",
  );
  assert.equal(cpuHoursNote("cuda", 5 * 3600), undefined);
  assert.equal(cpuHoursNote("cpu", 1800), undefined, "under an hour: no warning");
  assert.match(
    cpuHoursNote("cpu", 2 * 3600 + 600) ?? "",
    /^note: this run is on the CPU and will take hours: at most 2h 10m by the warm-up/,
  );
});
