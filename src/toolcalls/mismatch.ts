// Replies that look like a call in another dialect than the one parsed: a parser mismatch, not a model's choice.
import type { ToolDialect } from "./dialect.ts";
import { TEXT_DIALECTS } from "./formats.ts";

/**
 * Whether a reply, once the calls its own dialect took are cut out, still looks like a call written another way:
 * a <tool_call> in a Llama reply, a bare {"name": ...} at the start of a Qwen reply, a [TOOL_CALLS] anywhere.
 * Formats that share their markers (emulated writes hermes' tags) are one family here.
 */
export function looksForeign(reply: string, dialect: ToolDialect): boolean {
  let rest = reply;
  for (const call of dialect.findCalls(reply)) rest = rest.replace(call, "");
  const family = (d: ToolDialect) => d.family ?? d.format;
  return TEXT_DIALECTS.some((other) => family(other) !== family(dialect) && other.looksLikeCall(rest));
}
