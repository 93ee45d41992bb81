// The model runtime on the tiny model: tokens, decoding, greedy determinism, the forced prefix, limits, parallelism.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { loadModel } from "../../src/llm/index.ts";
import { SEARCH_POSTS } from "../../src/designs/tools.ts";
import { pyJsonDumps } from "../../src/python/index.ts";
import { decodeReply } from "../../src/llm/sequence-runtime.ts";
import { sharedLlama } from "../../src/llm/load-model.ts";
import type { ChatMessage, ChatRuntime, GenerateRequest, Generation, LoadedModel } from "../../src/llm/types.ts";
import { GREEDY_REQUESTS, question } from "../helpers/greedy-requests.ts";
import { repoRoot } from "../helpers/run-cli.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

let model: LoadedModel;

before(async () => {
  model = await loadModel(await tinyModelPath(), { cacheDir: testCacheDir, gpu: false, threads: 1, contextSize: 2048 });
});
after(async () => {
  await model.dispose();
});

/** What must not change between runs: everything but the time taken. */
const outcome = (g: Generation) => ({
  text: g.text,
  tokensRead: g.record.tokensRead,
  tokensGenerated: g.record.tokensGenerated,
  stopReason: g.record.stopReason,
});

async function runAll(runtime: ChatRuntime, requests: readonly GenerateRequest[]) {
  const out = [];
  for (const r of requests) out.push(outcome(await runtime.generate(r)));
  return out;
}

test("the model's record says which llama.cpp binary ran, as node-llama-cpp reports it", async () => {
  const llama = await sharedLlama(false);
  assert.deepEqual(model.info.binary, {
    buildType: llama.buildType,
    cmakeOptions: { ...llama.cmakeOptions },
    systemInfo: llama.systemInfo.trim(),
  });
  assert.match(model.info.binary!.systemInfo!, /CPU : /);
  // A clean install runs the prebuilt binary until `npm run build:cpu` builds one here.
  assert.ok(["prebuilt", "localBuild"].includes(model.info.binary!.buildType));
});

test("special tokens are single tokens, as in the Hugging Face tokenizer", () => {
  for (const special of ["<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>", "<|endoftext|>"]) {
    assert.equal(model.countTokens(special), 1, special);
  }
  assert.equal(model.countTokens("<|im_start|>user\n"), 3);
});

test("decoding drops control tokens and keeps <tool_call> text", async () => {
  const llama = await sharedLlama(false); // the runtime's own backend: a second one would take over llama.cpp's log
  const vocab = await llama.loadModel({ modelPath: await tinyModelPath(), vocabOnly: true });
  try {
    const reply = '<tool_call>\n{"name": "search_posts", "arguments": {"query": "x"}}\n</tool_call>';
    const tokens = vocab.tokenize(`${reply}<|im_end|>`, true);
    assert.equal(tokens[0], 151657); // <tool_call> as its own id
    assert.equal(tokens.at(-1), 151645); // <|im_end|>
    assert.equal(decodeReply(vocab, tokens), reply);
    assert.equal(decodeReply(vocab, vocab.tokenize("<|im_start|>assistant\nhi", true)), "assistant\nhi");
  } finally {
    await vocab.dispose();
  }
});

test("the forced prefix starts the text and counts in tokens read", async () => {
  const [runtime] = await model.openRuntimes(1, { reuseCache: false });
  const messages: ChatMessage[] = [
    { role: "system", content: "S" },
    { role: "user", content: question(7) },
  ];
  const plain = await runtime!.generate({ messages, tools: [SEARCH_POSTS], maxTokens: 8 });
  const forced = await runtime!.generate({ messages, tools: [SEARCH_POSTS], prefix: "<tool_call>\n", maxTokens: 8 });
  assert.ok(forced.text.startsWith("<tool_call>\n"));
  assert.equal(forced.prompt, `${plain.prompt}<tool_call>\n`);
  assert.equal(forced.record.tokensRead, plain.record.tokensRead + 2); // <tool_call> and "\n"
  assert.equal(forced.record.tokensRead, model.countTokens(forced.prompt));
});

test("generation stops at maxTokens with stop reason max-tokens", async () => {
  const [runtime] = await model.openRuntimes(1, { reuseCache: false });
  const g = await runtime!.generate({ messages: [{ role: "user", content: question(1) }], maxTokens: 5 });
  assert.equal(g.record.stopReason, "max-tokens");
  assert.equal(g.record.tokensGenerated, 5);
  assert.equal(g.record.tokensEvaluated, g.record.tokensRead);
  assert.equal("error" in g.record, false);
});

test("greedy decoding repeats itself across runs and across processes", async () => {
  const [a] = await model.openRuntimes(1, { reuseCache: false });
  const [b] = await model.openRuntimes(1, { reuseCache: true });
  const first = await runAll(a!, GREEDY_REQUESTS);
  assert.deepEqual(await runAll(a!, GREEDY_REQUESTS), first);
  assert.deepEqual(await runAll(b!, GREEDY_REQUESTS), first);
  assert.ok(first.every((o) => o.text.length > 0 && o.tokensGenerated > 0));
  const child = spawnSync(process.execPath, ["--import", "tsx", path.join(repoRoot, "test/helpers/greedy-child.ts")], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout).outputs, first);
});

test("four runtimes generating at once give the one-at-a-time outputs, with and without cache reuse", async () => {
  const requests = Array.from(
    { length: 12 },
    (_, i): GenerateRequest => ({
      messages: [
        { role: "system", content: "You answer questions." },
        { role: "user", content: question(i) },
      ],
      ...(i % 3 === 0 ? { tools: [SEARCH_POSTS], prefix: "<tool_call>\n" } : {}),
      maxTokens: 20,
    }),
  );
  const [one] = await model.openRuntimes(1, { reuseCache: false });
  const expected = await runAll(one!, requests);
  for (const reuseCache of [false, true]) {
    const runtimes = await model.openRuntimes(4, { reuseCache });
    const got: ReturnType<typeof outcome>[] = new Array(requests.length);
    let next = 0;
    await Promise.all(
      runtimes.map(async (rt) => {
        while (next < requests.length) {
          const i = next++;
          got[i] = outcome(await rt.generate(requests[i]!));
        }
      }),
    );
    assert.deepEqual(got, expected, `reuseCache ${reuseCache}`);
  }
});

test("cache reuse cuts evaluated tokens of a growing conversation but not its outputs", async () => {
  const conversation = async (runtime: ChatRuntime) => {
    const messages: ChatMessage[] = [
      { role: "system", content: "You answer questions about a technical blog, using its tools." },
      { role: "user", content: question(3) },
    ];
    const turns = [];
    for (let turn = 0; turn < 3; turn++) {
      const g = await runtime.generate({
        messages,
        tools: [SEARCH_POSTS],
        ...(turn === 0 ? { prefix: "<tool_call>\n" } : {}),
        maxTokens: 30,
      });
      turns.push(g);
      messages.push(
        { role: "assistant", content: g.text },
        { role: "tool", content: pyJsonDumps([{ post: `p${turn}`, heading: "H", snippet: "words ..." }]) },
      );
    }
    return turns;
  };
  const [off] = await model.openRuntimes(1, { reuseCache: false });
  const [on] = await model.openRuntimes(1, { reuseCache: true });
  const cold = await conversation(off!);
  const warm = await conversation(on!);
  assert.deepEqual(warm.map(outcome), cold.map(outcome));
  for (const g of cold) assert.equal(g.record.tokensEvaluated, g.record.tokensRead);
  assert.equal(warm[0]!.record.tokensEvaluated, warm[0]!.record.tokensRead);
  for (const [i, g] of warm.entries()) {
    if (i === 0) continue;
    // Only what follows the previous prompt's tokens is new (the reply is re-tokenized, so it may be re-read).
    const previous = warm[i - 1]!.record.tokensRead;
    assert.ok(
      g.record.tokensEvaluated! <= g.record.tokensRead - previous + 1,
      `turn ${i}: ${JSON.stringify(g.record)}`,
    );
    assert.ok(g.record.tokensEvaluated! > 0);
  }
});

test("a prompt longer than the context gives a context-overflow record, not an exception", async () => {
  const small = await loadModel(await tinyModelPath(), {
    cacheDir: testCacheDir,
    gpu: false,
    threads: 1,
    contextSize: 256,
  });
  try {
    const [runtime] = await small.openRuntimes(1, { reuseCache: true });
    const long = await runtime!.generate({ messages: [{ role: "user", content: "word ".repeat(400) }] });
    assert.equal(long.record.stopReason, "context-overflow");
    assert.ok(long.record.tokensRead > 256);
    assert.equal(long.record.tokensGenerated, 0);
    assert.equal(long.text, "");
    assert.match(long.record.error ?? "", /does not fit the context of 256 tokens/);
    // A prompt that fits but leaves too little room stops when the context is full.
    const tight = await runtime!.generate({
      messages: [{ role: "user", content: "word ".repeat(200) }],
      maxTokens: 200,
    });
    assert.equal(tight.record.stopReason, "context-overflow");
    assert.equal(tight.record.tokensRead + tight.record.tokensGenerated, 256);
    assert.match(tight.record.error ?? "", /filled up/);
    assert.ok(tight.record.tokensGenerated > 0 && tight.record.tokensGenerated < 200);
    // The runtime still works afterwards.
    const ok = await runtime!.generate({ messages: [{ role: "user", content: "hi" }], maxTokens: 3 });
    assert.equal(ok.record.stopReason, "max-tokens");
  } finally {
    await small.dispose();
  }
});

test("one runtime refuses a second call while the first runs", async () => {
  const [runtime] = await model.openRuntimes(1, { reuseCache: false });
  const first = runtime!.generate({ messages: [{ role: "user", content: "hi" }], maxTokens: 3 });
  await assert.rejects(
    runtime!.generate({ messages: [{ role: "user", content: "hi" }] }),
    /before the previous call finished/,
  );
  assert.equal((await first).record.tokensGenerated, 3);
});
