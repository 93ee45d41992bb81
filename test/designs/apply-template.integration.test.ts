// The study's example exchange in each tool-call format: our rendering (@huggingface/jinja, as transformers does)
// against llama-server's /apply-template for the same messages and tools, through each family's real template.
// Needs llama-server from scripts/build-llama-server.sh (about 15 minutes on 2 idle cores, once); skipped, saying so, without it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { ChatMessage } from "../../src/llm/index.ts";
import { compileChatTemplate, renderChatPrompt } from "../../src/llm/chat-template.ts";
import { DIALECTS, type ToolFormat } from "../../src/toolcalls/index.ts";
import { detectDialect } from "../../src/toolcalls/detect.ts";
import { llamaServerMissing, startLlamaServer } from "../helpers/llama-server.ts";
import { tinyModelPath } from "../helpers/tiny-model.ts";
import { exampleExchange } from "../helpers/example-exchange.ts";

const skip = llamaServerMissing() ?? false;

/** The example as `format` writes it into messages, and our rendering with the tiny model's bos and eos tokens. */
function ours(name: string, format: ToolFormat): { messages: ChatMessage[]; tools: object; prompt: string } {
  const source = readFileSync(new URL(`../fixtures/templates/${name}.jinja`, import.meta.url), "utf8");
  const dialect = format === "emulated" ? detectDialect(source, name).dialect : DIALECTS[format];
  const { messages, tools } = exampleExchange(format, dialect);
  const tokens = { bos_token: "<|endoftext|>", eos_token: "<|im_end|>" };
  const prompt = renderChatPrompt(compileChatTemplate(source, name), { messages, ...tools }, tokens);
  return { messages, tools, prompt };
}

async function theirs(name: string, messages: ChatMessage[], tools: object): Promise<string> {
  const template = new URL(`../fixtures/templates/${name}.jinja`, import.meta.url).pathname;
  const extraArgs = ["-c", "2048", "--jinja", "--chat-template-file", template];
  const server = await startLlamaServer(await tinyModelPath(), { extraArgs });
  try {
    const response = await fetch(`${server.rootUrl}/apply-template`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages, ...tools }),
    });
    return ((await response.json()) as { prompt: string }).prompt;
  } finally {
    await server.stop();
  }
}

const SAME: readonly (readonly [string, ToolFormat])[] = [
  ["Qwen-Qwen2.5-7B-Instruct", "hermes"],
  ["Qwen-Qwen3-0.6B", "hermes"],
  ["meta-llama-Llama-3.2-3B-Instruct", "llama3"],
  ["mistralai-Mistral-Nemo-Instruct-2407", "mistral"],
  ["Mistral-Small-3.2-24B-Instruct-2506", "mistral-v11"],
  ["google-gemma-2-2b-it", "emulated"],
  ["microsoft-Phi-3.5-mini-instruct", "emulated"],
];

for (const [name, format] of SAME) {
  test(`${format} through ${name}: identical to llama-server's /apply-template`, { skip }, async () => {
    const { messages, tools, prompt } = ours(name, format);
    assert.equal(await theirs(name, messages, tools), prompt);
  });
}

test("llama3 through Llama 3.1's template: identical but for the date llama-server fills in", { skip }, async () => {
  const name = "meta-llama-Llama-3.1-8B-Instruct";
  const { messages, tools, prompt } = ours(name, "llama3");
  // Without a date_string the template writes its own default, as transformers does; llama-server passes today's.
  const served = (await theirs(name, messages, tools)).replace(/Today Date: [^\n]*/, "Today Date: 26 Jul 2024");
  assert.equal(served, prompt);
});

test("phi4 through Phi-4-mini's template: llama-server drops the system message's tools field", { skip }, async () => {
  const name = "microsoft-Phi-4-mini-instruct";
  const { messages, tools, prompt } = ours(name, "phi4");
  // Its message parser keeps role, content and tool calls only, so the <|tool|> list is missing there: a server
  // that renders Phi-4-mini's prompts itself would not show the model its tools. blogqa renders them here.
  const served = await theirs(name, messages, tools);
  assert.equal(prompt.replace(/<\|tool\|>\[[^\n]*?\]<\|\/tool\|>/, ""), served);
});
