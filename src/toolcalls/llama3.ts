// llama3: Llama 3.1, 3.2 and 3.3 Instruct, with the tools given to the template (JSON, "custom" tool calling).
//
// Format: the reply is one JSON object {"name": ..., "parameters": {...}} (arguments under "parameters"), optionally
// after <|python_tag|>; the template asks for exactly that ('Respond in the format {"name": function name,
// "parameters": dictionary of argument name and its value}'). Results go back in the `tool` role, which the template
// renders as an `ipython` turn. Several objects one after another (space or ";" between) are taken as several calls;
// anything before the first "{" means no call, as in llama.cpp's parser, which only looks at the reply's start.
// subtle: <|python_tag|> is a control token, which the runtime drops from a reply's text unless asked to keep it:
// this dialect asks (keepTokens). Either way the object is found.
// Sources: llama.cpp models/templates/meta-llama-Llama-3.1-8B-Instruct.jinja, meta-llama-Llama-3.2-3B-Instruct.jinja,
// meta-llama-Llama-3.3-70B-Instruct.jinja (in node-llama-cpp's llama/gitRelease.bundle); Meta's Llama 3.1 model card,
// "JSON based tool calling" (https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_1/); node-llama-cpp's
// Llama3_1ChatWrapper (results after "<|start_header_id|>ipython<|end_header_id|>").
import { pyJsonDumps, rawDecode } from "../python/index.ts";
import { plainTurn, skipSpace, systemThenQuestion, type TextDialect } from "./dialect.ts";

const PYTHON_TAG = "<|python_tag|>";
/** Where a call starts: an object whose first key is "name" (or "type", as {"type": "function", "name": ...}). */
const CALL_START = /^\{\s*"(?:name|type)"\s*:/;

function findCalls(reply: string): string[] {
  let pos = skipSpace(reply, 0);
  if (reply.startsWith(PYTHON_TAG, pos)) pos = skipSpace(reply, pos + PYTHON_TAG.length);
  const calls: string[] = [];
  while (CALL_START.test(reply.slice(pos))) {
    let end: number;
    try {
      end = rawDecode(reply.slice(pos)).end;
    } catch {
      calls.push(reply.slice(pos).trimEnd()); // truncated: one call that fails to parse, so the model reads why
      break;
    }
    calls.push(reply.slice(pos, pos + end));
    pos = skipSpace(reply, pos + end);
    if (reply[pos] === ";") pos = skipSpace(reply, pos + 1);
  }
  return calls;
}

export const llama3: TextDialect<"llama3"> = {
  format: "llama3",
  describe: "Llama 3.1 to 3.3",
  exampleReply: (call) => pyJsonDumps({ name: call.name, parameters: call.arguments }),
  detect: (template) =>
    template.includes(PYTHON_TAG) || template.includes("ipython") ? "the template has the ipython role" : undefined,
  findCalls,
  argumentsKey: "parameters",
  forced: { prefix: '{"name": "' },
  keepTokens: [PYTHON_TAG],
  templateTools: true,
  openingMessages: systemThenQuestion,
  turnMessages: plainTurn,
  looksLikeCall: (text) => text.includes(PYTHON_TAG) || /^\s*\{\s*"name"\s*:/.test(text),
};
