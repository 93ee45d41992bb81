// --shared-context on the tiny model: the sampling patch is really called for every sample, and sequences that share
// one context produce what each produces alone. The patch's presence check alone would not notice a node-llama-cpp
// that bound the native call once, before the patch.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { loadModel } from "../../src/llm/index.ts";
import { sharedLlama } from "../../src/llm/load-model.ts";
import { serializeSampling } from "../../src/llm/serialize-sampling.ts";
import type { GenerateRequest, LoadedModel } from "../../src/llm/types.ts";
import { GREEDY_REQUESTS, question } from "../helpers/greedy-requests.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

const SEQUENCES = 4;
const TOKENS = 20;

let model: LlamaModel;
before(async () => {
  const llama = await sharedLlama(false); // the runtime's own backend: a second one would take over llama.cpp's log
  model = await llama.loadModel({ modelPath: await tinyModelPath() });
});
after(async () => {
  await model.dispose();
});

const contextOptions = (sequences: number) => ({
  sequences,
  contextSize: 1024,
  threads: { ideal: 1, min: 1 },
  flashAttention: false,
});

/** Greedy tokens from `prompt`, exactly `count` of them (stopping at none of the end tokens). */
async function greedy(sequence: LlamaContextSequence, prompt: readonly Token[], count: number): Promise<Token[]> {
  const out: Token[] = [];
  for await (const token of sequence.evaluate([...prompt], { temperature: 0 })) {
    out.push(token);
    if (out.length === count) break;
  }
  return out;
}

test("with the patch, every sample of every sequence goes through it, and each sequence's tokens are its own", async () => {
  const prompts = Array.from({ length: SEQUENCES }, (_, i) =>
    model.tokenize(`<|im_start|>user\n${question(i)}<|im_end|>\n<|im_start|>assistant\n`, true),
  );
  const alone: Token[][] = [];
  for (const prompt of prompts) {
    const context = await model.createContext(contextOptions(1));
    alone.push(await greedy(context.getSequence(), prompt, TOKENS));
    await context.dispose();
  }

  const context = await model.createContext(contextOptions(SEQUENCES));
  try {
    let samples = 0;
    assert.equal(
      serializeSampling(context, () => samples++),
      true,
      "the patch applies to this node-llama-cpp",
    );
    const sequences = prompts.map(() => context.getSequence());
    const together = await Promise.all(sequences.map((s, i) => greedy(s, prompts[i]!, TOKENS)));
    assert.equal(samples, SEQUENCES * TOKENS, "one call of the patched sampler per token generated");
    assert.deepEqual(together, alone);
  } finally {
    await context.dispose();
  }
});

test("the runtime with --shared-context answers as one sequence at a time does", async () => {
  const loaded: LoadedModel = await loadModel(await tinyModelPath(), {
    cacheDir: testCacheDir,
    gpu: false,
    threads: 1,
    contextSize: 1024,
  });
  try {
    const requests: readonly GenerateRequest[] = GREEDY_REQUESTS.slice(0, SEQUENCES);
    const [one] = await loaded.openRuntimes(1, { reuseCache: false });
    const alone = [];
    for (const r of requests) alone.push((await one!.generate(r)).text);
    const shared = await loaded.openRuntimes(requests.length, { reuseCache: false, sharedContext: true });
    const together = await Promise.all(requests.map(async (r, i) => (await shared[i]!.generate(r)).text));
    assert.deepEqual(together, alone);
  } finally {
    await loaded.dispose();
  }
});
