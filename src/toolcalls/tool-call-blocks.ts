// Finds the tool calls in a reply with the study's own pattern, and counts the <tool_call> tags it passed over.

// Python's \s in a str pattern: the 29 characters for which str.isspace() is true (CPython 3.11).
// subtle: JavaScript's \s is another set. It lacks \x1c-\x1f (the information separators) and \x85 (next line),
// which Python counts as whitespace, and adds \ufeff, which Python does not.
const PY_SPACE = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";

// The study's re.findall(r"<tool_call>\s*(\{.*?)\s*</tool_call>", text, flags=re.S). A block counts only if, after
// optional whitespace, it starts with "{"; the call runs from that "{" to the whitespace before the first
// </tool_call> after it. An unclosed tag, a list, or a call written as code is no call, and a tag that opens no
// call is passed over: in "<tool_call>\n<tool_call>\n{...}</tool_call>" the second tag opens the call.
const STUDY_PATTERN = new RegExp(`<tool_call>${PY_SPACE}*(\\{[^]*?)${PY_SPACE}*</tool_call>`, "g");
const OPEN_TAG = "<tool_call>";

/** The text of each call the study's pattern takes, in the order written. */
export function toolCallBlocks(reply: string): string[] {
  return [...reply.matchAll(STUDY_PATTERN)].map((m) => m[1]!);
}

/**
 * Beyond the study: how many <tool_call> tags in a reply opened no call that the pattern took (unclosed, not
 * followed by "{", or a stray tag before the one that did). Tags inside a taken call are part of that call.
 */
export function ignoredCallBlocks(reply: string): number {
  const taken = [...reply.matchAll(STUDY_PATTERN)].map((m) => [m.index, m.index + m[0].length] as const);
  let ignored = 0;
  for (let at = reply.indexOf(OPEN_TAG); at !== -1; at = reply.indexOf(OPEN_TAG, at + OPEN_TAG.length)) {
    if (!taken.some(([start, end]) => at >= start && at < end)) ignored++;
  }
  return ignored;
}
