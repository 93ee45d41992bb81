// The constrained first call on the tiny model: with the grammar every first call parses and names a real tool;
// without it, the random-weights model writes none. The tool block's token count is measured on every call.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadModel } from "../../src/llm/index.ts";
import { callFailure, type ChatRuntime, type LoadedModel } from "../../src/llm/types.ts";
import { AGENT_TOOLS, prompts } from "../../src/designs/index.ts";
import { FIRST_CALL_CONSTRAINT } from "../../src/designs/engineered/designs.ts";
import { bindToolCall } from "../../src/designs/tools.ts";
import { toolCallBlocks } from "../../src/toolcalls/tool-call-blocks.ts";
import { repoRoot } from "../helpers/run-cli.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

let model: LoadedModel;
let runtime: ChatRuntime;
const questions = readFileSync(path.join(repoRoot, "questions", "questions.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => (JSON.parse(line) as { question: string }).question);

before(async () => {
  model = await loadModel(await tinyModelPath(), { cacheDir: testCacheDir, gpu: false, threads: 1, contextSize: 2048 });
  runtime = (await model.openRuntimes(1, { reuseCache: true }))[0]!;
});
after(async () => {
  await model.dispose();
});

/** The forced design's first call on each question, with or without the constraint: how many name a real tool. */
async function firstCalls(constrained: boolean) {
  let good = 0;
  const replies: string[] = [];
  for (const question of questions) {
    const messages = [
      { role: "system", content: prompts.agentSystemPrompt("agent-forced") },
      { role: "user", content: question },
    ] as const;
    const { text, record } = await runtime.generate({
      messages,
      tools: AGENT_TOOLS,
      prefix: prompts.FORCED_PREFIX,
      // Room for any constrained call (the shortest needs 67); the free replies, gibberish that never ends, stop
      // here rather than at the study's 200.
      maxTokens: 96,
      ...(constrained ? { constraint: FIRST_CALL_CONSTRAINT } : {}),
    });
    assert.equal(callFailure(record), undefined);
    replies.push(text);
    const blocks = toolCallBlocks(text);
    if (blocks.length === 1 && bindToolCall(blocks[0]!).kind === "bound") good++;
  }
  return { good, replies };
}

test("with the tool-call grammar, 30 of 30 first calls parse and name a real tool; without it, none do", async () => {
  assert.equal(questions.length, 30);
  const constrained = await firstCalls(true);
  assert.equal(
    constrained.good,
    30,
    constrained.replies.find((r) => toolCallBlocks(r).length !== 1),
  );
  for (const reply of constrained.replies)
    assert.match(
      reply,
      /^<tool_call>\n\{"name": "(search_posts|read_section)", "arguments": \{.*\}\}\n<\/tool_call>$/s,
    );
  const free = await firstCalls(false);
  assert.equal(free.good, 0);
});

test("a call with tools records its tool block's tokens: the prompt with the tools minus the prompt without", async () => {
  const messages = [
    { role: "system", content: prompts.AGENT_SYSTEM_PROMPT },
    { role: "user", content: "q?" },
  ] as const;
  const { record } = await runtime.generate({ messages, tools: AGENT_TOOLS, maxTokens: 1 });
  const without = model.countTokens(model.renderPrompt({ messages }));
  assert.equal(record.toolBlockTokens, record.tokensRead - without);
  assert.ok(record.toolBlockTokens! > 50, `${record.toolBlockTokens} tokens`);
  const plain = await runtime.generate({ messages, maxTokens: 1 });
  assert.equal(plain.record.toolBlockTokens, undefined);
});

test("under a short --max-new-tokens every constrained call still closes; one that cannot close is a call error", async () => {
  const messages = (question: string) =>
    [
      { role: "system", content: prompts.agentSystemPrompt("agent-forced") },
      { role: "user", content: question },
    ] as const;
  for (const maxTokens of [67, 90, 120]) {
    for (const question of questions.slice(0, 10)) {
      const { text, record } = await runtime.generate({
        messages: messages(question),
        tools: AGENT_TOOLS,
        prefix: prompts.FORCED_PREFIX,
        constraint: FIRST_CALL_CONSTRAINT,
        maxTokens,
      });
      assert.equal(record.stopReason, "eos", `${maxTokens} tokens: ${text}`);
      assert.ok(record.tokensGenerated <= maxTokens);
      assert.match(text, /\n<\/tool_call>$/);
      assert.equal(bindToolCall(toolCallBlocks(text)[0]!).kind, "bound");
    }
  }
  const { record } = await runtime.generate({
    messages: messages(questions[0]!),
    tools: AGENT_TOOLS,
    prefix: prompts.FORCED_PREFIX,
    constraint: FIRST_CALL_CONSTRAINT,
    maxTokens: 40,
  });
  assert.equal(
    callFailure(record),
    "no call of search_posts or read_section can close within 40 new tokens (the shortest needs 67): give the " +
      "constrained call more new tokens",
  );
});
