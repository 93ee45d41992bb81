// Which runs sample, with which values and seeds: the flags' combinations, the seed's derivation, the per-call seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { UserError } from "../../src/common/errors.ts";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { modelSampling, runSeed, samplingChoice, withSampling } from "../../src/runs/sampling.ts";
import type { ChatRuntime, GenerateRequest } from "../../src/llm/types.ts";

const base = {
  samples: 1,
  seed: 0,
  sampling: "auto",
  temperature: undefined,
  topP: undefined,
  topK: undefined,
} as const;

test("one sample decodes greedily, as the study; more samples, or a value given, sample", () => {
  assert.deepEqual(samplingChoice(base), { kind: "greedy" });
  assert.deepEqual(samplingChoice({ ...base, samples: 3 }), { kind: "sampled", given: {} });
  assert.deepEqual(samplingChoice({ ...base, temperature: 0.5 }), { kind: "sampled", given: { temperature: 0.5 } });
  assert.deepEqual(samplingChoice({ ...base, sampling: "model" }), { kind: "sampled", given: {} });
});

test("combinations that would not mean what they say are refused, naming the flag", () => {
  assert.throws(
    () => samplingChoice({ ...base, samples: 2, sampling: "greedy" }),
    /--samples above 1 with --sampling greedy/,
  );
  assert.throws(() => samplingChoice({ ...base, sampling: "greedy", topK: 5 }), /need sampling/);
  assert.throws(() => samplingChoice({ ...base, samples: 0 }), /--samples must be a whole number/);
  assert.throws(() => samplingChoice({ ...base, seed: -1 }), /--seed must be/);
  assert.throws(() => samplingChoice({ ...base, temperature: 0 }), /--temperature must be a number above 0/);
  assert.throws(() => samplingChoice({ ...base, samples: 2, topP: 1.5 }), /--top-p must be/);
  assert.throws(() => samplingChoice({ ...base, samples: 2, topK: 2.5 }), /--top-k must be/);
  assert.throws(() => samplingChoice({ ...base, samples: 2, topK: 2 ** 32 + 1 }), /--top-k must be/);
  assert.throws(() => samplingChoice({ ...base, temperature: Number.POSITIVE_INFINITY }), /--temperature must be/);
  // usage errors, as docs/commands.md says
  assert.throws(
    () => samplingChoice({ ...base, sampling: "greedy", topK: 5 }),
    (e: unknown) => e instanceof UserError && e.exitCode === 2,
  );
});

test("the model's generation config gives the values, a flag overrides one, Transformers' defaults fill the rest", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-sampling-"));
  const file = path.join(dir, "generation_config.json");
  // Qwen2.5-1.5B-Instruct's sampling fields, as its generation_config.json sets them.
  writeFileSync(
    file,
    JSON.stringify({ do_sample: true, temperature: 0.7, top_p: 0.8, top_k: 20, repetition_penalty: 1.1 }),
  );
  const config = { generationConfig: { path: file, sha256: "x", hub: null } };
  const model = modelSampling({ kind: "sampled", given: {} }, config);
  assert.deepEqual([model?.temperature, model?.topK, model?.topP], [0.7, 20, 0.8]);
  const hot = modelSampling({ kind: "sampled", given: { temperature: 1.2 } }, config);
  assert.deepEqual([hot?.temperature, hot?.topK, hot?.topP], [1.2, 20, 0.8]);
  const none = modelSampling({ kind: "sampled", given: {} }, { generationConfig: null });
  assert.deepEqual([none?.temperature, none?.topK, none?.topP], [1, 50, 1]);
  assert.equal(modelSampling({ kind: "greedy" }, config), undefined);
});

test("a run's seed is the first 32 bits of sha256 over --seed and its key, absent fields at their defaults", () => {
  const run = { model: "m.gguf", design: "agent", question_id: "q1" };
  const expected = (key: unknown[]) =>
    Number.parseInt(
      createHash("sha256")
        .update(JSON.stringify([0, JSON.stringify(key)]))
        .digest("hex")
        .slice(0, 8),
      16,
    );
  assert.equal(runSeed(0, run), expected(["m.gguf", "agent", "q1", "default", 0]));
  assert.equal(runSeed(0, { ...run, sample: 0, wording: "default" }), runSeed(0, run));
  const seeds = new Set([
    runSeed(0, run),
    runSeed(1, run),
    runSeed(0, { ...run, sample: 1 }),
    runSeed(0, { ...run, wording: "terse" }),
  ]);
  assert.equal(seeds.size, 4);
  // A local file counts by its name wherever it lies; a hub URI as a whole.
  assert.equal(runSeed(0, { ...run, model: "/home/a/models/m.gguf" }), runSeed(0, run));
  assert.equal(runSeed(0, { ...run, model: "/tmp/elsewhere/m.gguf" }), runSeed(0, run));
  const hub = { ...run, model: "hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-fp16-00001-of-00002.gguf" };
  assert.equal(runSeed(0, hub), expected([hub.model, "agent", "q1", "default", 0]));
});

test("a sampled run's n-th call draws with seed + n, wrapping at 2^32", async () => {
  const seen: GenerateRequest[] = [];
  const inner: ChatRuntime = {
    generate: async (request) => {
      seen.push(request);
      return {
        prompt: "",
        text: "",
        record: { tokensRead: 0, tokensEvaluated: 0, tokensGenerated: 0, stopReason: "eos", seconds: 0 },
      };
    },
  };
  const runtime = withSampling(inner, { temperature: 0.7, topK: 20, topP: 0.8, note: "" }, 2 ** 32 - 1);
  await runtime.generate({ messages: [] });
  await runtime.generate({ messages: [], maxTokens: 5 });
  assert.deepEqual(
    seen.map((r) => r.sampling),
    [
      { temperature: 0.7, topK: 20, topP: 0.8, seed: 2 ** 32 - 1 },
      { temperature: 0.7, topK: 20, topP: 0.8, seed: 0 },
    ],
  );
  assert.equal(seen[1]!.maxTokens, 5);
});
