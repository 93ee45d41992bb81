// phi4: Phi-4-mini-instruct.
//
// Format: calls between <|tool_call|> and <|/tool_call|>, a JSON array of {"name": ..., "arguments": {...}} (a single
// object is taken as one call; a tag followed by anything else opens no call). The template takes no `tools`
// variable: the tool list goes in the system message's own `tools` field, as a JSON string, rendered between <|tool|>
// and <|/tool|>. It renders every other message as
// <|role|>content<|end|>, so the reply goes back as written and each result as a `tool` message (<|tool|>...<|end|>).
// subtle: <|tool_call|> is a control token, which the runtime drops from a reply's text unless asked to keep it: this
// dialect asks for both tags (keepTokens), and for a runtime that drops them anyway, a reply that starts with a JSON
// array of objects is read as calls too. An unclosed <|tool_call|> is read to the reply's end.
// To check on real weights: vLLM's phi4_mini_json parser reads "functools[...]" instead; which one the released
// weights write is not verified here.
// Sources: microsoft/Phi-4-mini-instruct's tokenizer_config.json (chat_template; added tokens <|tool|>,
// <|/tool|>, <|tool_call|>, <|/tool_call|>) and model card, "Tool-enabled function-calling format"
// (https://huggingface.co/microsoft/Phi-4-mini-instruct); vLLM's tool_parsers/phi4mini_tool_parser.py.
import { pyJsonDumps } from "../python/index.ts";
import { arrayCalls, plainTurn, skipSpace, type TextDialect } from "./dialect.ts";

const OPEN = "<|tool_call|>";
const CLOSE = "<|/tool_call|>";

function findCalls(reply: string): string[] {
  const calls: string[] = [];
  let at = reply.indexOf(OPEN);
  if (at === -1) {
    const start = skipSpace(reply, 0);
    return reply[start] === "[" && reply[skipSpace(reply, start + 1)] === "{" ? arrayCalls(reply.slice(start)) : [];
  }
  while (at !== -1) {
    const close = reply.indexOf(CLOSE, at + OPEN.length);
    const body = reply.slice(at + OPEN.length, close === -1 ? undefined : close).trim();
    if (body.startsWith("[")) calls.push(...arrayCalls(body));
    else if (body.startsWith("{")) calls.push(body); // anything else opens no call, as in the study's pattern
    at = close === -1 ? -1 : reply.indexOf(OPEN, close + CLOSE.length);
  }
  return calls;
}

export const phi4: TextDialect<"phi4"> = {
  format: "phi4",
  describe: "Phi-4-mini",
  exampleReply: (call) => `${OPEN}[${pyJsonDumps({ name: call.name, arguments: call.arguments })}]${CLOSE}`,
  detect: (template) =>
    template.includes(OPEN) || template.includes("'<|tool|>'") ? "the template writes <|tool|>" : undefined,
  findCalls,
  argumentsKey: "arguments",
  forced: { prefix: OPEN },
  keepTokens: [OPEN, CLOSE],
  templateTools: false,
  openingMessages: (system, question, tools) => [
    { role: "system", content: system, tools: pyJsonDumps(tools.map((t) => t.function)) },
    { role: "user", content: question },
  ],
  turnMessages: plainTurn,
  looksLikeCall: (text) => text.includes(OPEN),
};
