// One entry of a chat-mode server's `tool_calls`, made a call the answer log can hold whatever the server sent.
import type { MessageToolCall } from "./types.ts";

/**
 * `entry` as a MessageToolCall. A well-formed entry keeps its id, name and arguments (a string id, a `function`
 * object with a string name); the log's reader needs exactly that shape, and a server may send anything. So an entry
 * without a usable `function` or name becomes a call named "" (the loop's `TOOLS[name]` then fails: a malformed
 * call, as in the study) whose arguments are the raw entry as JSON text, kept for the reader; an id that is not a
 * string is kept as its JSON text ("" when absent).
 */
export function asMessageToolCall(entry: unknown): MessageToolCall {
  const record = isRecord(entry) ? entry : undefined;
  const id = record?.id;
  const idText = typeof id === "string" ? id : id === undefined ? "" : JSON.stringify(id);
  const fn = isRecord(record?.function) ? record.function : undefined;
  if (fn === undefined || typeof fn.name !== "string")
    return { id: idText, type: "function", function: { name: "", arguments: JSON.stringify(entry) ?? "null" } };
  return { id: idText, type: "function", function: { name: fn.name, arguments: fn.arguments ?? null } };
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
