// The study's example exchange, written in each dialect, rendered by us (@huggingface/jinja, as transformers'
// apply_chat_template does) and by node-llama-cpp's own JinjaTemplateChatWrapper from the same messages and tools.
// No model is loaded: the wrapper renders the template text alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { JinjaTemplateChatWrapper, type ChatModelFunctions } from "node-llama-cpp";
import { compileChatTemplate, renderChatPrompt } from "../../src/llm/chat-template.ts";
import type { ToolFormat } from "../../src/toolcalls/index.ts";
import { EXAMPLE_CALL, EXAMPLE_QUESTION } from "../../src/designs/study-example.ts";
import { AGENT_ROLE } from "../../src/designs/prompts.ts";
import { SEARCH_POSTS } from "../../src/designs/tools.ts";
import { EXAMPLE_RESULT_TEXT as RESULT, exampleExchange } from "../helpers/example-exchange.ts";

/** node-llama-cpp's rendering: the exchange as its chat history, one function call with its result. */
function theirs(name: string): string {
  const template = readFileSync(new URL(`../fixtures/templates/${name}.jinja`, import.meta.url), "utf8");
  const wrapper = new JinjaTemplateChatWrapper({ template });
  const f = SEARCH_POSTS.function;
  const functions: ChatModelFunctions = {
    [f.name]: { description: f.description, params: f.parameters as ChatModelFunctions[string]["params"] },
  };
  const { contextText } = wrapper.generateContextState({
    chatHistory: [
      { type: "system", text: AGENT_ROLE },
      { type: "user", text: EXAMPLE_QUESTION },
      {
        type: "model",
        response: [{ type: "functionCall", name: f.name, params: EXAMPLE_CALL.arguments, result: RESULT }],
      },
    ],
    availableFunctions: functions,
  });
  return contextText.toString();
}

/** Ours: the same exchange as the dialect writes it into messages, rendered with the template's BOS as node-llama-cpp shows it. */
function ours(name: string, format: ToolFormat): string {
  const template = readFileSync(new URL(`../fixtures/templates/${name}.jinja`, import.meta.url), "utf8");
  const { messages, tools } = exampleExchange(format);
  return renderChatPrompt(
    compileChatTemplate(template, name),
    { messages, ...tools },
    { bos_token: "BOS", eos_token: "EOS" },
  );
}

test("hermes on Qwen2.5's template: identical", () => {
  assert.equal(ours("Qwen-Qwen2.5-7B-Instruct", "hermes"), theirs("Qwen-Qwen2.5-7B-Instruct"));
});

test("llama3 on Llama 3.1's and 3.2's templates: identical but for the tool result, which node-llama-cpp leaves unescaped", () => {
  for (const name of ["meta-llama-Llama-3.1-8B-Instruct", "meta-llama-Llama-3.2-3B-Instruct"]) {
    const [a, b] = [ours(name, "llama3"), theirs(name)];
    // The template writes a string result with tojson (a str is iterable in Jinja): ours is what transformers
    // renders, a JSON string; node-llama-cpp substitutes the text inside the quotes afterwards, unescaped.
    assert.equal(a.replace(JSON.stringify(RESULT), `"${RESULT}"`), b, name);
    assert.ok(a.includes(`<|start_header_id|>ipython<|end_header_id|>\n\n${JSON.stringify(RESULT)}<|eot_id|>`));
  }
});

test("hermes on Qwen3's template: node-llama-cpp adds empty think blocks (its reasoning setting) and quotes the result", () => {
  const [a, b] = [ours("Qwen-Qwen3-0.6B", "hermes"), theirs("Qwen-Qwen3-0.6B")];
  const withoutThink = b.replaceAll("<think>\n\n</think>\n\n", "").replace(JSON.stringify(RESULT), RESULT);
  assert.equal(a, withoutThink.replace("<|im_start|>assistant\n\n<tool_call>", "<|im_start|>assistant\n<tool_call>"));
});

test("mistral and phi4: node-llama-cpp does not read these templates' call syntax and falls back to its own", () => {
  for (const [name, format] of [
    ["mistralai-Mistral-Nemo-Instruct-2407", "mistral"],
    ["microsoft-Phi-4-mini-instruct", "phi4"],
  ] as const) {
    const b = theirs(name);
    assert.ok(b.includes("||call: search_posts("), name); // its generic function syntax, not the family's
    assert.notEqual(ours(name, format), b);
  }
});
