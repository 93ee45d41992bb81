// hermes: Qwen2.5, Qwen3, Hermes 2 Pro / Hermes 3 and QwQ. The study's own dialect, run exactly as the study ran it.
//
// Format: each call is a JSON object {"name": ..., "arguments": {...}} between <tool_call> and </tool_call>; results go
// back as `tool` messages, which the template wraps in <tool_response> tags inside a user turn.
// Sources: llama.cpp models/templates/Qwen-Qwen2.5-7B-Instruct.jinja, Qwen-Qwen3-0.6B.jinja,
// NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja (in node-llama-cpp's llama/gitRelease.bundle); Qwen's function
// calling guide (https://qwen.readthedocs.io/en/latest/framework/function_call.html, "Hermes-style tool use");
// node-llama-cpp's QwenChatWrapper. The parser is the study's pattern, unchanged (../tool-call-blocks.ts).
import { toolCallBlocks } from "./tool-call-blocks.ts";
import { plainTurn, systemThenQuestion, type ToolDialect } from "./dialect.ts";

/** Starts the first reply of the forced design: the study's stand-in for an API's tool_choice "required". */
export const FORCED_PREFIX = "<tool_call>\n";

export const hermes: ToolDialect = {
  format: "hermes",
  findCalls: toolCallBlocks,
  argumentsKey: "arguments",
  forced: { prefix: FORCED_PREFIX },
  keepTokens: [], // <tool_call> is a user-defined token: it is never dropped
  templateTools: true,
  openingMessages: systemThenQuestion,
  turnMessages: plainTurn,
  looksLikeCall: (text) => text.includes("<tool_call>"),
};
