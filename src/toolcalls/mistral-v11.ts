// mistral-v11: Mistral Small 3.2, Devstral, Magistral and Ministral 3 (the "v11" tokenizer's format and later).
//
// Format: each call is [TOOL_CALLS], the tool's name, optionally [CALL_ID] and an id, then [ARGS] and the arguments
// as a JSON object; several calls repeat the whole. The templates render a reply's calls only from structured
// `tool_calls` with 9-character ids (Mistral Small 3.2 raises otherwise and writes them after [CALL_ID]); results
// go back as `tool` messages with the same `tool_call_id`.
// subtle: [TOOL_CALLS], [CALL_ID] and [ARGS] are control tokens, which the runtime drops from a reply's text unless
// asked to keep them: this dialect asks (keepTokens). Without them the call cannot be told from prose, so a runtime
// that drops them finds no call (check on real weights that the markers come back).
// Sources: llama.cpp models/templates/Mistral-Small-3.2-24B-Instruct-2506.jinja,
// unsloth-mistral-Devstral-Small-2507.jinja, mistralai-Ministral-3-14B-Reasoning-2512.jinja (in node-llama-cpp's
// llama/gitRelease.bundle); llama.cpp common/chat.cpp (its Ministral parser: "[TOOL_CALLS]" name "[ARGS]" JSON,
// repeated); Mistral's function calling docs (https://docs.mistral.ai/capabilities/function_calling/).
import { PyDict, pyJsonDumps, rawDecode, toPlainJson } from "../python/index.ts";
import { type NamedCallText, systemThenQuestion, type TextDialect } from "./dialect.ts";
import { mistralTurnMessages } from "./mistral.ts";

const MARKER = "[TOOL_CALLS]";
const ARGS = "[ARGS]";
const CALL_ID = /\[CALL_ID\][^[]*/;

/** Each call's text as written, from its name to the end of its arguments (or to the next call, when they fail). */
function findCalls(reply: string): string[] {
  const starts: number[] = [];
  for (let at = reply.indexOf(MARKER); at !== -1; at = reply.indexOf(MARKER, at + MARKER.length)) starts.push(at);
  return starts.flatMap((start, i) => {
    const text = reply.slice(start + MARKER.length, starts[i + 1] ?? reply.length);
    const args = text.indexOf(ARGS);
    if (args === -1) return []; // a marker with no [ARGS] opens no call, as a <tool_call> with no "{" in the study's
    const from = args + ARGS.length;
    try {
      return [text.slice(0, from + rawDecode(text.slice(from)).end)];
    } catch {
      return [text.trimEnd()]; // truncated or not JSON: one call that fails, so the model reads why
    }
  });
}

/** The call's name (its [CALL_ID] left out) and the text of its arguments. */
function parts(raw: string): NamedCallText {
  const args = raw.indexOf(ARGS);
  return { name: raw.slice(0, args).replace(CALL_ID, "").trim(), argumentsText: raw.slice(args + ARGS.length) };
}

/** What the template shows of a call: its name, and its arguments where they decode to an object (else {}). */
function written(raw: string): { name: string; arguments: unknown } {
  const { name, argumentsText } = parts(raw);
  try {
    const value = rawDecode(argumentsText).value;
    return { name, arguments: value instanceof PyDict ? toPlainJson(value) : {} };
  } catch {
    return { name, arguments: {} };
  }
}

export const mistralV11: TextDialect<"mistral-v11"> = {
  format: "mistral-v11",
  describe: "Mistral Small 3.2, Devstral, Magistral, Ministral 3",
  exampleReply: (call) => `${MARKER}${call.name}${ARGS}${pyJsonDumps(call.arguments)}`,
  detect: (template) =>
    template.includes(MARKER) && template.includes(ARGS) ? "the template writes [TOOL_CALLS] name [ARGS]" : undefined,
  family: "mistral",
  findCalls,
  argumentsKey: "arguments",
  splitCall: parts,
  forced: { prefix: MARKER },
  keepTokens: [MARKER, "[CALL_ID]", ARGS],
  templateTools: true,
  openingMessages: systemThenQuestion,
  turnMessages: mistralTurnMessages(written),
  looksLikeCall: (text) => text.includes(MARKER),
};
