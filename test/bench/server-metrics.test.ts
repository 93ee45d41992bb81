// The bench's llama-server rows take their tokens from llama-server's /metrics counters.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { countersDelta, parseMetrics } from "../../scripts/bench/server.ts";

// A real /metrics page: the llama-server scripts/build-llama-server.sh builds, after two requests of 5 tokens each
// for the one-token prompt "hello" (the second evaluated it again: llama-server always evaluates a prompt's last token).
const page = readFileSync(new URL("../fixtures/llama-server-metrics.txt", import.meta.url), "utf8");

test("the counters are read from a real /metrics page, gauges and help lines ignored", () => {
  assert.deepEqual(parseMetrics(page), {
    generated: 10,
    promptEvaluated: 2,
    promptCached: 0,
    promptSeconds: 0.00211,
    decodeSeconds: 0.006872,
  });
});

test("a page without a counter is an error naming it", () => {
  const without = page
    .split("\n")
    .filter((l) => !l.startsWith("llamacpp:tokens_predicted_total "))
    .join("\n");
  assert.throws(() => parseMetrics(without), /llamacpp:tokens_predicted_total/);
  assert.throws(() => parseMetrics(page.replace("llamacpp:prompt_tokens_total 2", "llamacpp:prompt_tokens_total x")));
});

test("a run's figures are what each counter moved by", () => {
  const before = { generated: 10, promptEvaluated: 2, promptCached: 0, promptSeconds: 0.5, decodeSeconds: 0.25 };
  const after = { generated: 138, promptEvaluated: 1359, promptCached: 1119, promptSeconds: 3.5, decodeSeconds: 1.25 };
  assert.deepEqual(countersDelta(before, after), {
    generated: 128,
    promptEvaluated: 1357,
    promptCached: 1119,
    promptSeconds: 3,
    decodeSeconds: 1,
  });
});
