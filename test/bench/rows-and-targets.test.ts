// The bench's binary and samples rows, and the targets read from them and from the parallel modes' longer slice.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ModelInfo } from "../../src/llm/index.ts";
import { binaryRows, samplesRows, type BenchRow, type BinaryRow } from "../../scripts/bench/rows.ts";
import type { ModeSample } from "../../scripts/bench/run-mode.ts";
import { BINARY_NAMES, checkTargets, type TargetInputs } from "../../scripts/bench/targets.ts";

function sample(over: Partial<ModeSample>): ModeSample {
  return {
    tokensRead: 1000,
    tokensEvaluated: 400,
    agentTokensRead: 600,
    agentTokensEvaluated: 100,
    tokensGenerated: 64,
    seconds: 10,
    busySeconds: 9.5,
    callSeconds: 9.5,
    calls: 8,
    promptSeconds: 4,
    decodeSeconds: 5,
    decodeSteps: 56,
    refusedRuns: 0,
    agentCalls: 6,
    agentRuns: 6,
    runs: 8,
    answers: new Map([
      ["workflow q1", "a"],
      ["agent q1", "b"],
    ]),
    info: {} as ModelInfo,
    ...over,
  };
}

test("a binary's row takes medians of its repeats' rates, and counts answers changed against the first binary", () => {
  const [prebuilt, local] = binaryRows([
    {
      name: "prebuilt",
      samples: [sample({ promptSeconds: 4 }), sample({ promptSeconds: 5 }), sample({ promptSeconds: 8 })],
    },
    {
      name: "local build",
      samples: [sample({ promptSeconds: 2, decodeSeconds: 4 }), sample({ answers: new Map([["workflow q1", "x"]]) })],
    },
  ]);
  assert.equal(prebuilt!.prompt_tokens_per_second, 80); // 400 tokens in 5 s, the median of 4, 5 and 8
  assert.equal(prebuilt!.decode_tokens_per_second, 56 / 5);
  assert.equal(prebuilt!.answers_changed, 0);
  assert.equal(local!.prompt_tokens_per_second, (200 + 100) / 2); // the mean of the middle two
  // One answer differs and one is missing in the second repeat.
  assert.equal(local!.answers_changed, 2);
});

test("the samples rows divide prompt tokens evaluated by runs, against the first row's", () => {
  const rows = samplesRows([
    { samples: 1, sample: sample({ runs: 8, tokensEvaluated: 1600 }) },
    { samples: 8, sample: sample({ runs: 64, tokensEvaluated: 1800 }) },
  ]);
  assert.deepEqual(
    rows.map((r) => [r.samples, r.runs, r.evaluated_per_run, r.per_run_ratio]),
    [
      [1, 8, 200, 1],
      [8, 64, 28.125, 28.125 / 200],
    ],
  );
});

function row(mode: string, over: Partial<BenchRow>): BenchRow {
  return {
    mode,
    parallel: 1,
    tokens_read: 1000,
    tokens_evaluated: 400,
    agent_tokens_read: 600,
    agent_tokens_evaluated: 100,
    tokens_generated: 64,
    seconds: 10,
    tokens_per_second: 6.4,
    speedup: 1,
    overhead: 0.01,
    answers_changed: 0,
    refused_runs: 0,
    ...over,
  };
}

function binary(name: string, promptRate: number, decodeRate: number, changed = 0): BinaryRow {
  return {
    binary: name,
    tokens_evaluated: 400,
    prompt_seconds: 400 / promptRate,
    prompt_tokens_per_second: promptRate,
    decode_steps: 56,
    decode_seconds: 56 / decodeRate,
    decode_tokens_per_second: decodeRate,
    seconds: 10,
    answers_changed: changed,
  };
}

const base: TargetInputs = {
  rows: [row("naive", {}), row("cache-reuse", {}), row("cache-reuse-x8", { tokens_evaluated: 800, seconds: 12 })],
  profiles: [],
  index: undefined,
  cores: 2,
  threadsPerContext: 2,
  questionsPerDesign: 4,
  agentCallsPerRun: 1,
};
const verdict = (checks: ReturnType<typeof checkTargets>, start: string) => {
  const check = checks.find((c) => c.target.startsWith(start));
  assert.ok(check, `a target starting ${JSON.stringify(start)}`);
  return check.met;
};

test("the parallel targets read the longer slice's rows where the bench ran them", () => {
  const short = checkTargets(base);
  assert.equal(verdict(short, "8 parallel sequences: prompt tokens evaluated"), false); // 2.00x
  assert.equal(verdict(short, "8 parallel sequences: wall time"), false);
  const long = checkTargets({
    ...base,
    parallel: {
      rows: [
        row("cache-reuse", { tokens_evaluated: 4000, seconds: 60 }),
        row("cache-reuse-x8", { tokens_evaluated: 4800, seconds: 60 }),
      ],
      profiles: [],
      questionsPerDesign: 16,
    },
  });
  assert.equal(verdict(long, "8 parallel sequences: prompt tokens evaluated"), true); // exactly 1.2x
  assert.equal(verdict(long, "8 parallel sequences: wall time"), true);
  assert.match(long.find((c) => c.target.includes("wall time"))!.measured, /16 question\(s\) per design/);
});

test("the local build's targets: prompt within 0.95x of llama-server's, decode no lower, answers unchanged", () => {
  const targets = (local: BinaryRow) =>
    checkTargets({
      ...base,
      binaries: [binary(BINARY_NAMES.prebuilt, 100, 20), local, binary(BINARY_NAMES.server, 200, 30)],
    });
  const good = targets(binary(BINARY_NAMES.local, 190, 30));
  assert.deepEqual(
    [
      verdict(good, "Local build (npm run build:cpu): prompt"),
      verdict(good, "Local build: decode"),
      verdict(good, "Local build gives"),
    ],
    [true, true, true],
  );
  const bad = targets(binary(BINARY_NAMES.local, 189, 29.9, 1));
  assert.deepEqual(
    [
      verdict(bad, "Local build (npm run build:cpu): prompt"),
      verdict(bad, "Local build: decode"),
      verdict(bad, "Local build gives"),
    ],
    [false, false, false],
  );
  assert.match(good.find((c) => c.target.includes("prompt tokens/s"))!.measured, /local build 1\.90x of it/);
});
