// Thinking models: the template's switch is set on every call, and <think> blocks never answer or call.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compileChatTemplate, renderChatPrompt } from "../../src/llm/chat-template.ts";
import { modelThinking, templateThinks, withoutThinking } from "../../src/designs/thinking.ts";
import { runAgent } from "../../src/designs/agent-loop.ts";
import { runWorkflow } from "../../src/designs/workflow.ts";
import { fakeIndex, scriptedRuntime } from "../helpers/scripted-runtime.ts";

const template = (name: string) =>
  compileChatTemplate(readFileSync(new URL(`../fixtures/templates/${name}.jinja`, import.meta.url), "utf8"), name);
const QWEN3 = template("Qwen-Qwen3-0.6B");
const QWEN25 = template("Qwen-Qwen2.5-7B-Instruct");
const MESSAGES = [
  { role: "system", content: "S" },
  { role: "user", content: "Q" },
] as const;

test("withoutThinking removes closed, unclosed and prompt-opened blocks, and nothing else", () => {
  assert.equal(withoutThinking("<think>\nsearch first\n</think>\n\nIt rescales."), "It rescales.");
  assert.equal(withoutThinking("<think>\nstill thinking when the tokens ran out"), "");
  assert.equal(withoutThinking("opened by the prompt\n</think>\n\nIt rescales."), "It rescales.");
  assert.equal(withoutThinking("  No thinking here.\nSource: a"), "  No thinking here.\nSource: a");
});

test("a template knows thinking when it writes <think> or takes enable_thinking", () => {
  assert.equal(templateThinks(QWEN3.source), true);
  assert.equal(templateThinks(QWEN25.source), false);
});

test("Qwen3's switch: off writes the empty think block into the prompt, on leaves the reply to think", () => {
  const off = renderChatPrompt(QWEN3, { messages: MESSAGES, enableThinking: false });
  const on = renderChatPrompt(QWEN3, { messages: MESSAGES, enableThinking: true });
  assert.ok(off.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n"), off);
  assert.ok(on.endsWith("<|im_start|>assistant\n"), on);
  // The study's Qwen2.5 prompts do not change: its template never reads the switch, and runs never send it.
  assert.equal(
    renderChatPrompt(QWEN25, { messages: MESSAGES, enableThinking: false }),
    renderChatPrompt(QWEN25, { messages: MESSAGES }),
  );
});

test("a run sets the switch on every call for a thinking template only, and says so", async () => {
  const runtime = scriptedRuntime(["a", "b"]);
  const qwen3 = modelThinking({ template: QWEN3 }, false);
  await qwen3.wrap(runtime).generate({ messages: MESSAGES });
  assert.equal(runtime.requests[0]?.enableThinking, false);
  assert.equal(qwen3.note, "thinking off (--thinking turns it on)");
  const qwen25 = modelThinking({ template: QWEN25 }, true);
  await qwen25.wrap(runtime).generate({ messages: MESSAGES });
  assert.equal(Object.hasOwn(runtime.requests[1]!, "enableThinking"), false);
  assert.match(qwen25.note ?? "", /--thinking has no effect/);
});

test("a call written inside <think> is no call; the answer is what follows the block; the log keeps it all", async () => {
  const reply =
    '<think>\n<tool_call>\n{"name": "search_posts", "arguments": {"query": "x"}}\n</tool_call>\n</think>\n\n' +
    "It rescales.\nSource: flashattention-explained";
  const index = fakeIndex();
  const t = await runAgent({ question: "Q?", design: "agent", runtime: scriptedRuntime([reply]), index, thinks: true });
  assert.equal(t.answer, "It rescales.\nSource: flashattention-explained");
  assert.equal(t.calls[0]?.reply, reply);
  assert.deepEqual(index.queries, []);
  const w = await runWorkflow({
    question: "Q?",
    runtime: scriptedRuntime(["<think>\nhm\n</think>\n\nIt is.\nSource: a"]),
    index: fakeIndex(),
    thinks: true,
  });
  assert.equal(w.answer, "It is.\nSource: a");
});
