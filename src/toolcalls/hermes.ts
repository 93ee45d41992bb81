// hermes: Qwen2.5, Qwen3, Hermes 2 Pro / Hermes 3 and QwQ. The study's own dialect, run exactly as the study ran it.
//
// Format: each call is a JSON object {"name": ..., "arguments": {...}} between <tool_call> and </tool_call>; results go
// back as `tool` messages, which the template wraps in <tool_response> tags inside a user turn.
// Sources: llama.cpp models/templates/Qwen-Qwen2.5-7B-Instruct.jinja, Qwen-Qwen3-0.6B.jinja,
// NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja (in node-llama-cpp's llama/gitRelease.bundle); Qwen's function
// calling guide (https://qwen.readthedocs.io/en/latest/framework/function_call.html, "Hermes-style tool use");
// node-llama-cpp's QwenChatWrapper. The parser is the study's pattern, unchanged (../tool-call-blocks.ts).
import { pyJsonDumps } from "../python/index.ts";
import { toolCallBlocks } from "./tool-call-blocks.ts";
import { type ExampleCall, plainTurn, systemThenQuestion, type TextDialect } from "./dialect.ts";

/** Starts the first reply of the forced design: the study's stand-in for an API's tool_choice "required". */
export const FORCED_PREFIX = "<tool_call>\n";

/** The study's printed call: the JSON object on its own line between the tags. */
export function hermesReply(call: ExampleCall): string {
  return `<tool_call>\n${pyJsonDumps({ name: call.name, arguments: call.arguments })}\n</tool_call>`;
}

export const hermes: TextDialect<"hermes"> = {
  format: "hermes",
  describe: "Qwen, Hermes 2/3: the study's",
  exampleReply: hermesReply,
  detect: (template) => (template.includes("<tool_call>") ? "the template writes <tool_call>" : undefined),
  findCalls: toolCallBlocks,
  argumentsKey: "arguments",
  forced: { prefix: FORCED_PREFIX },
  keepTokens: [], // <tool_call> is a user-defined token: it is never dropped
  templateTools: true,
  openingMessages: systemThenQuestion,
  turnMessages: plainTurn,
  looksLikeCall: (text) => text.includes("<tool_call>"),
};
