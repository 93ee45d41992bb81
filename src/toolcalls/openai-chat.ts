// openai-chat: --server-mode chat, what an API user gets. The server renders the messages and tools with its own
// template and parses the calls out of the reply with its own parser; the loop runs the calls it returns.
//
// Format: the answer's message has `content` and `tool_calls`, each {"id", "type": "function", "function": {"name",
// "arguments"}} with the arguments as a JSON string, which a client reads as json.loads would: a string that does
// not decode, an unknown tool or bad arguments make a malformed call, as in the study. The reply (its content) and
// the calls go back as one assistant message with the tool_calls as the server returned them, then one `tool`
// message per result carrying that call's `tool_call_id`. The forced design asks for tool_choice "required", the
// API's own way, instead of a prefix.
// Sources: OpenAI's chat completions API reference (https://platform.openai.com/docs/api-reference/chat/create:
// tool_calls, tool_choice, the tool message's tool_call_id); llama.cpp tools/server (its answer's message.tool_calls,
// with ids it generates when the format has none).
import type { MessageToolCall } from "../llm/index.ts";
import { jsonLoads } from "../python/index.ts";
import { type NamedCallText, systemThenQuestion, type ToolDialect } from "./dialect.ts";

/** Each call the server returned, as JSON text (the record's raw): the reply's own text holds none. */
function findCalls(_reply: string, parsed: readonly MessageToolCall[] = []): string[] {
  return parsed.map((call) => JSON.stringify(call));
}

/** A returned call's name and its arguments, to be decoded with json.loads. */
function splitCall(raw: string): NamedCallText {
  const fn = (JSON.parse(raw) as { function?: { name?: unknown; arguments?: unknown } }).function;
  const name = typeof fn?.name === "string" ? fn.name : "";
  // The API sends a string; a server that sends the object itself is read as that object's JSON.
  const args = typeof fn?.arguments === "string" ? fn.arguments : JSON.stringify(fn?.arguments ?? null);
  return { name, argumentsText: args, decode: jsonLoads };
}

export const openaiChat: ToolDialect<"openai-chat"> = {
  format: "openai-chat",
  findCalls,
  argumentsKey: "arguments",
  splitCall,
  forced: { toolChoice: "required" },
  keepTokens: [],
  templateTools: true,
  openingMessages: systemThenQuestion,
  turnMessages: (reply, calls) => {
    const returned = calls.map((call) => JSON.parse(call.raw) as MessageToolCall);
    return [
      { role: "assistant", content: reply, tool_calls: returned },
      ...returned.map((call, i) => ({
        role: "tool" as const,
        content: calls[i]!.result,
        ...(typeof call.id === "string" ? { tool_call_id: call.id } : {}),
      })),
    ];
  },
  // The calls never stand in the text: a call-like text in a reply is one the server's parser did not take.
  looksLikeCall: () => false,
};
