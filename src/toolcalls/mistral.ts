// mistral: Mistral 7B Instruct v0.3 and Mistral Nemo (the "v3" tokenizer's format).
//
// Format: [TOOL_CALLS] then a JSON array of {"name": ..., "arguments": {...}}. The template renders a reply's calls
// only from structured `tool_calls`, each with an id of exactly 9 characters (it raises "Tool call IDs should be
// alphanumeric strings with length 9!" otherwise), and each result as a `tool` message with the same
// `tool_call_id`, in [TOOL_RESULTS]{"content": ..., "call_id": ...}[/TOOL_RESULTS].
// subtle: [TOOL_CALLS] is a control token, which the runtime drops from a reply's text unless asked to keep it: this
// dialect asks (keepTokens), and for a runtime that drops it anyway, a reply that starts with a JSON array of objects
// is read as calls too. The forced prefix is text, so it stays.
// The newer "[TOOL_CALLS]name[ARGS]{...}" form of Mistral Small 3.2, Devstral and Ministral 3 is mistral-v11
// (./mistral-v11.ts); detection tells the two apart by the template's [ARGS].
// Sources: llama.cpp models/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja (in node-llama-cpp's
// llama/gitRelease.bundle); llama.cpp common/chat.cpp (ids "sometimes in a very specific format, e.g. Mistral
// Nemo"); node-llama-cpp's MistralChatWrapper (calls after "[TOOL_CALLS]["); Mistral's function calling docs
// (https://docs.mistral.ai/capabilities/function_calling/).
import type { ChatMessage } from "../llm/index.ts";
import { PyDict, pyJsonDumps, rawDecode, toPlainJson } from "../python/index.ts";
import { arrayCalls, skipSpace, systemThenQuestion, type TextDialect, type ToolDialect } from "./dialect.ts";

const MARKER = "[TOOL_CALLS]";

function findCalls(reply: string): string[] {
  const at = reply.indexOf(MARKER);
  const start = at === -1 ? skipSpace(reply, 0) : skipSpace(reply, at + MARKER.length);
  // Without the marker, only an array of objects at the reply's start counts.
  if (reply[start] !== "[" || (at === -1 && reply[skipSpace(reply, start + 1)] !== "{")) return [];
  return arrayCalls(reply.slice(start));
}

/** The 9-character id the template demands, fixed by the call's place in the run so that reruns render alike. */
export function mistralCallId(turn: number, index: number): string {
  return `T${String(turn).padStart(3, "0")}C${String(index).padStart(4, "0")}`;
}

/**
 * A turn as Mistral's templates take it: the reply's calls as structured `tool_calls` (shown by `show`), each with its
 * 9-character id, then each result as a `tool` message carrying that id.
 */
export function mistralTurnMessages(
  show: (raw: string) => { name: string; arguments: unknown },
): ToolDialect["turnMessages"] {
  return (_reply, calls, turn) => [
    {
      role: "assistant",
      content: "",
      tool_calls: calls.map((call, i) => ({
        id: mistralCallId(turn, i + 1),
        type: "function" as const,
        function: show(call.raw),
      })),
    },
    ...calls.map(
      (call, i): ChatMessage => ({ role: "tool", content: call.result, tool_call_id: mistralCallId(turn, i + 1) }),
    ),
  ];
}

/** The call's name and arguments as the model wrote them, where it wrote an object (else "" and {}). */
function written(raw: string): { name: string; arguments: unknown } {
  try {
    const value = rawDecode(raw).value;
    if (value instanceof PyDict) {
      const name = value.get("name");
      const args = value.get("arguments");
      return { name: typeof name === "string" ? name : "", arguments: args instanceof PyDict ? toPlainJson(args) : {} };
    }
  } catch {
    // falls through: a call that does not parse is carried with no name and no arguments; its result says why
  }
  return { name: "", arguments: {} };
}

export const mistral: TextDialect<"mistral"> = {
  format: "mistral",
  describe: "Mistral 7B v0.3, Mistral Nemo",
  exampleReply: (call) => `${MARKER}[${pyJsonDumps({ name: call.name, arguments: call.arguments })}]`,
  // mistral-v11's templates write [TOOL_CALLS] too, with [ARGS] after the name.
  detect: (template) =>
    template.includes(MARKER) && !template.includes("[ARGS]")
      ? "the template writes [TOOL_CALLS] with a JSON list"
      : undefined,
  findCalls,
  argumentsKey: "arguments",
  forced: { prefix: MARKER },
  keepTokens: [MARKER],
  templateTools: true,
  openingMessages: systemThenQuestion,
  turnMessages: mistralTurnMessages(written),
  looksLikeCall: (text) => text.includes(MARKER),
};
