// The repetition penalty is Transformers' rule, step by step: on the zero-block model, whose logits this test reads
// from the file's own tensors, every token the harness picks is the argmax a hand-applied penalty gives.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getLlama, readGgufFileInfo, type LlamaModel } from "node-llama-cpp";
import { loadModel, type ChatMessage, type GenerateRequest, type Generation } from "../../src/llm/index.ts";
import type { RepetitionPenaltySetting } from "../../src/llm/generation-config.ts";
import { testCacheDir, zeroBlockModelPath } from "../helpers/tiny-model.ts";

const PENALTY = 1.13;
const MESSAGES: ChatMessage[] = [
  { role: "system", content: "Answer in words." },
  { role: "user", content: "the cat sat on the mat" },
];

/** Logits after token t, exactly as the model computes them: output.weight x rms_norm(token_embd[t]) x output_norm. */
interface ExactModel {
  logits(t: number): Float64Array;
}

async function readExactModel(file: string): Promise<ExactModel> {
  const info = await readGgufFileInfo(file, { logWarnings: false });
  const bytes = fs.readFileSync(file);
  const tensor = (name: string): Float32Array => {
    const t = info.tensorInfo?.find((x) => x.name === name);
    assert.ok(t, `${name} in ${file}`);
    assert.equal(t.ggmlType, 0, `${name} is F32`);
    const count = t.dimensions.reduce((a: number, b) => a * Number(b), 1);
    const start = Number(t.fileOffset);
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + start + count * 4));
  };
  const embedding = tensor("token_embd.weight");
  const output = tensor("output.weight");
  const norm = tensor("output_norm.weight");
  const hidden = norm.length;
  const eps = Number(
    (info.metadata as unknown as { qwen2: { attention: { layer_norm_rms_epsilon: number } } }).qwen2.attention
      .layer_norm_rms_epsilon,
  );
  const rows = output.length / hidden;
  return {
    logits(t) {
      const e = embedding.subarray(t * hidden, (t + 1) * hidden);
      let squares = 0;
      for (const x of e) squares += x * x;
      const scale = 1 / Math.sqrt(squares / hidden + eps);
      const normed = Float64Array.from(e, (x, k) => x * scale * norm[k]!);
      const logits = new Float64Array(rows);
      for (let j = 0; j < rows; j++) {
        let sum = 0;
        for (let k = 0; k < hidden; k++) sum += output[j * hidden + k]! * normed[k]!;
        logits[j] = sum;
      }
      return logits;
    },
  };
}

/** Transformers' RepetitionPenaltyLogitsProcessor: each distinct id in the input, logit / p if positive, else * p. */
function transformersPenalty(logits: Float64Array, input: readonly number[], p: number): Float64Array {
  const out = Float64Array.from(logits);
  for (const id of new Set(input)) out[id] = out[id]! < 0 ? out[id]! * p : out[id]! / p;
  return out;
}

/** The winner and its lead over the runner-up. */
function argmax(scores: Float64Array): { readonly id: number; readonly margin: number } {
  let best = 0;
  let second = -Infinity;
  for (let j = 1; j < scores.length; j++) {
    if (scores[j]! > scores[best]!) {
      second = scores[best]!;
      best = j;
    } else if (scores[j]! > second) second = scores[j]!;
  }
  return { id: best, margin: scores[best]! - second };
}

interface Replay {
  readonly steps: number;
  /** Steps where the penalty changed the winner, by the sign of the unpenalized winner's logit. */
  readonly flipsPositive: number;
  readonly flipsNegative: number;
  /** Steps where the wrong direction (dividing negative logits too) would have picked another token. */
  readonly wrongRuleDiffers: number;
}

/** Checks every generated token against the hand-computed argmax over prompt (prefix included) + tokens so far. */
function replay(
  exact: ExactModel,
  prompt: readonly number[],
  generated: readonly number[],
  penalty: number | null,
): Replay {
  const input = [...prompt];
  let flipsPositive = 0;
  let flipsNegative = 0;
  let wrongRuleDiffers = 0;
  generated.forEach((token, step) => {
    const logits = exact.logits(input[input.length - 1]!);
    const plain = argmax(logits);
    const expected = penalty === null ? plain : argmax(transformersPenalty(logits, input, penalty));
    // a lead this large cannot be overturned by float32 rounding in llama.cpp's matmul
    assert.ok(
      expected.margin > 1e-4,
      `step ${step}: a near-tie (${expected.margin}) would make this check meaningless`,
    );
    assert.equal(
      token,
      expected.id,
      `step ${step}: the harness picked ${token}, Transformers' rule picks ${expected.id}`,
    );
    if (penalty !== null && expected.id !== plain.id) {
      if (logits[plain.id]! > 0) flipsPositive++;
      else flipsNegative++;
    }
    if (penalty !== null) {
      const wrong = Float64Array.from(logits);
      for (const id of new Set(input)) wrong[id] = wrong[id]! / penalty;
      if (argmax(wrong).id !== token) wrongRuleDiffers++;
    }
    input.push(token);
  });
  return { steps: generated.length, flipsPositive, flipsNegative, wrongRuleDiffers };
}

let vocabPromise: Promise<LlamaModel> | undefined;
/** node-llama-cpp's own tokenizer for the model, loaded apart from the harness. */
async function tokenizer(): Promise<LlamaModel> {
  vocabPromise ??= getLlama({ gpu: false, logLevel: "error" as never }).then(async (llama) =>
    llama.loadModel({ modelPath: await zeroBlockModelPath(), vocabOnly: true }),
  );
  return vocabPromise;
}

/** Prompt and reply token ids of a generation (the zero-block words re-tokenize to themselves: checked). */
async function tokensOf(g: Generation, prefix = ""): Promise<{ prompt: number[]; reply: number[] }> {
  const vocab = await tokenizer();
  const prompt = [...vocab.tokenize(g.prompt, true)];
  assert.ok(g.text.startsWith(prefix));
  const reply = [...vocab.tokenize(g.text.slice(prefix.length), false)];
  assert.equal(
    reply.length,
    g.record.tokensGenerated,
    `the reply ${JSON.stringify(g.text)} re-tokenizes to its own tokens`,
  );
  return { prompt, reply };
}

async function generateWith(
  modelPath: string,
  setting: RepetitionPenaltySetting,
  requests: readonly GenerateRequest[],
) {
  const model = await loadModel(modelPath, {
    cacheDir: testCacheDir,
    gpu: false,
    repetitionPenalty: setting,
    onProgress: () => {},
  });
  try {
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    const out: Generation[] = [];
    for (const request of requests) out.push(await runtime!.generate(request));
    return { info: model.info, generations: out };
  } finally {
    await model.dispose();
  }
}

test("with a penalty, every pick is the argmax of Transformers' rule over prompt, forced prefix and reply", {
  timeout: 300_000,
}, async () => {
  const file = await zeroBlockModelPath();
  const exact = await readExactModel(file);
  const prefix = " the dog";
  // the second call shares the first's prompt up to the forced prefix: the reused KV cache must not shrink the input
  const { info, generations } = await generateWith(file, PENALTY, [
    { messages: MESSAGES, maxTokens: 60 },
    { messages: MESSAGES, prefix, maxTokens: 30 },
  ]);
  assert.equal(info.decoding.repetitionPenalty, PENALTY);
  const totals = { steps: 0, flipsPositive: 0, flipsNegative: 0, wrongRuleDiffers: 0 };
  for (const [i, g] of generations.entries()) {
    const { prompt, reply } = await tokensOf(g, i === 1 ? prefix : "");
    const r = replay(exact, prompt, reply, PENALTY);
    for (const k of Object.keys(totals) as (keyof Replay)[]) totals[k] += r[k];
  }
  assert.equal(totals.steps, 90);
  // the model is built so the penalty matters: it must change the winner often, on both signs of logits
  assert.ok(totals.flipsPositive >= 5, `penalty changed ${totals.flipsPositive} winners with positive logits`);
  assert.ok(totals.flipsNegative >= 5, `penalty changed ${totals.flipsNegative} winners with negative logits`);
  assert.ok(totals.wrongRuleDiffers >= 1, "dividing negative logits would have been caught");
});

test("without a penalty every pick is the plain argmax, and the output differs from the penalized one", {
  timeout: 300_000,
}, async () => {
  const file = await zeroBlockModelPath();
  const exact = await readExactModel(file);
  const none = (await generateWith(file, "none", [{ messages: MESSAGES, maxTokens: 60 }])).generations[0]!;
  const { prompt, reply } = await tokensOf(none);
  replay(exact, prompt, reply, null);
  const penalized = (await generateWith(file, PENALTY, [{ messages: MESSAGES, maxTokens: 60 }])).generations[0]!;
  assert.notEqual(penalized.text, none.text);
});

test("auto reads a generation_config.json beside the model: its penalty, and its eos_token_id as the end", {
  timeout: 300_000,
}, async () => {
  const file = await zeroBlockModelPath();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "generation-config-"));
  try {
    const penalized = (await generateWith(file, PENALTY, [{ messages: MESSAGES, maxTokens: 60 }])).generations[0]!;
    const { reply } = await tokensOf(penalized);
    const end = reply[20]!;
    const stopAt = reply.indexOf(end);
    const model = path.join(dir, "model.gguf");
    fs.symlinkSync(file, model);
    const configText = `${JSON.stringify({ repetition_penalty: PENALTY, eos_token_id: [end, 151643], do_sample: true, temperature: 0.7 }, null, 2)}\n`;
    fs.writeFileSync(path.join(dir, "generation_config.json"), configText);

    const { info, generations } = await generateWith(model, "auto", [{ messages: MESSAGES, maxTokens: 60 }]);
    const decoding = info.decoding;
    assert.equal(decoding.setting, "auto");
    assert.equal(decoding.repetitionPenalty, PENALTY);
    assert.deepEqual(decoding.stopTokens, [end, 151643]);
    assert.equal(decoding.generationConfig?.path, path.join(dir, "generation_config.json"));
    assert.equal(decoding.generationConfig?.sha256, createHash("sha256").update(configText).digest("hex"));
    const auto = generations[0]!;
    assert.equal(auto.record.stopReason, "eos");
    assert.equal(auto.record.tokensGenerated, stopAt + 1);
    assert.equal((await tokensOf(auto)).reply.join(), reply.slice(0, stopAt + 1).join());

    // the same model with no config beside it: auto is no penalty, and says so
    fs.rmSync(path.join(dir, "generation_config.json"));
    const bare = await generateWith(model, "auto", [{ messages: MESSAGES, maxTokens: 8 }]);
    assert.equal(bare.info.decoding.repetitionPenalty, null);
    assert.equal(bare.info.decoding.stopTokens, null);
    assert.match(
      bare.info.decoding.note,
      /no generation_config\.json beside model\.gguf or given: no repetition penalty/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
