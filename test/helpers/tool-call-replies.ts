// The hand-written replies of test/fixtures/tool-call-replies.json, each with what CPython 3.11 made of it with the
// study's pattern, raw_decode and tool(**arguments) (written by make_tool_call_replies.py beside it).
import { readFileSync } from "node:fs";

export interface ToolCallReplyCase {
  readonly what: string;
  readonly reply: string;
  readonly expected: string;
}

export const TOOL_CALL_REPLIES = JSON.parse(
  readFileSync(new URL("../fixtures/tool-call-replies.json", import.meta.url), "utf8"),
) as readonly ToolCallReplyCase[];
