// node-llama-cpp loads the tiny model, tokenizes Qwen2.5's special tokens as single ids, and decodes greedily, deterministically and not in a loop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getLlama, type Llama, type Token } from "node-llama-cpp";
import { tinyModelPath } from "../helpers/tiny-model.ts";

// one thread: llama.cpp's default thread count made a tiny model 100 times slower on a 2-core runner
const THREADS = 1;
const PROMPT =
  "<|im_start|>system\nYou answer questions about a technical blog.<|im_end|>\n" +
  "<|im_start|>user\nHow can a maximum and a running sum be updated incrementally?<|im_end|>\n<|im_start|>assistant\n<tool_call>\n";

let llamaPromise: Promise<Llama> | undefined;
const llama = (): Promise<Llama> => (llamaPromise ??= getLlama({ gpu: false, logLevel: "error" as never }));

/** Loads the model afresh and decodes `count` tokens greedily. */
async function greedy(count: number): Promise<{ tokens: Token[]; text: string }> {
  const model = await (await llama()).loadModel({ modelPath: await tinyModelPath() });
  try {
    const context = await model.createContext({ contextSize: 256, threads: THREADS });
    const tokens: Token[] = [];
    for await (const token of context.getSequence().evaluate(model.tokenize(PROMPT, true), { temperature: 0 })) {
      tokens.push(token);
      if (tokens.length >= count) break;
    }
    return { tokens, text: model.detokenize(tokens, true) };
  } finally {
    await model.dispose();
  }
}

test("special tokens are single ids; <tool_call> survives decoding without specials, <|im_start|> does not", async () => {
  const model = await (await llama()).loadModel({ modelPath: await tinyModelPath() });
  try {
    assert.deepEqual(model.tokenize("<|im_start|>", true), [151644]);
    assert.deepEqual(model.tokenize("<|im_end|>", true), [151645]);
    assert.deepEqual(model.tokenize("<tool_call>", true), [151657]);
    assert.deepEqual(model.tokenize("</tool_call>", true), [151658]);
    assert.ok(model.tokenize("<|im_start|>", false).length > 1, "without specials it is plain text");
    const tokens = model.tokenize("<|im_start|>assistant\n<tool_call>\n{}<|im_end|>", true);
    assert.equal(model.detokenize(tokens, true), "<|im_start|>assistant\n<tool_call>\n{}<|im_end|>");
    assert.equal(model.detokenize(tokens, false), "assistant\n<tool_call>\n{}");
    assert.equal(model.tokens.eos, 151645);
    assert.equal(model.fileInsights.trainContextSize, 32768);
  } finally {
    await model.dispose();
  }
});

test("greedy decoding is the same across two loads, and wanders over many tokens instead of repeating one", async () => {
  const first = await greedy(24);
  const second = await greedy(24);
  assert.equal(first.tokens.length, 24);
  assert.deepEqual(second.tokens, first.tokens);
  assert.equal(second.text, first.text);
  assert.ok(
    new Set(first.tokens).size >= 16,
    `only ${new Set(first.tokens).size} distinct tokens in ${JSON.stringify(first.text)}`,
  );
});
