// What the runtime asks node-llama-cpp for: plain greedy without a penalty, and with one a live list of the whole input.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Token } from "node-llama-cpp";
import { evaluateOptions } from "../../src/llm/sequence-runtime.ts";

test("without a penalty the options are plain greedy: no repeatPenalty of any kind", () => {
  const options = evaluateOptions(null, [1, 2] as Token[], [], 4096);
  assert.deepEqual(Object.keys(options).sort(), ["contextShift", "temperature", "yieldEogToken"]);
  assert.equal(options.temperature, 0);
  assert.equal(options.yieldEogToken, true);
});

test("with a penalty, every pick punishes the prompt and all tokens generated so far, in a window as long as the context", () => {
  const generated: Token[] = [];
  const options = evaluateOptions(1.1, [5, 6, 5] as Token[], generated, 4096);
  const penalty = options.repeatPenalty;
  assert.ok(penalty !== undefined);
  assert.equal(penalty.penalty, 1.1);
  assert.equal(penalty.maxPunishTokens, 4096);
  assert.equal(penalty.frequencyPenalty, 0);
  assert.equal(penalty.presencePenalty, 0);
  assert.ok(typeof penalty.punishTokens === "function");
  assert.deepEqual(penalty.punishTokens(), [5, 6, 5]);
  generated.push(9 as Token, 5 as Token);
  assert.deepEqual(penalty.punishTokens(), [5, 6, 5, 9, 5], "asked again before each pick, it sees the new tokens");
});

test("with sampling, the seed and every sampler value are passed, min-p off, so no node-llama-cpp default applies", () => {
  const options = evaluateOptions(null, [1] as Token[], [], 4096, { temperature: 0.7, topK: 20, topP: 0.8, seed: 42 });
  assert.deepEqual(
    [options.temperature, options.topK, options.topP, options.minP, options.seed],
    [0.7, 20, 0.8, 0, 42],
  );
  assert.equal(options.repeatPenalty, undefined);
  const penalized = evaluateOptions(1.05, [1] as Token[], [], 4096, { temperature: 1, topK: 0, topP: 1, seed: 0 });
  assert.equal(penalized.repeatPenalty?.penalty, 1.05);
  assert.equal(penalized.topK, 0);
});
