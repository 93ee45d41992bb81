// Finds the tool calls in a reply: every <tool_call>...</tool_call> block, as the study's regex did.

// Non-greedy and across lines, like Python's re.findall(r"<tool_call>(.*?)</tool_call>", reply, re.S).
// An unclosed <tool_call> is no block at all: the reply then counts as an answer.
const TOOL_CALL_BLOCK = /<tool_call>([\s\S]*?)<\/tool_call>/g;

/** The text inside each block, in the order written. */
export function toolCallBlocks(reply: string): string[] {
  return [...reply.matchAll(TOOL_CALL_BLOCK)].map((m) => m[1] ?? "");
}
