// Finds the tool calls in a reply with the study's own pattern, and counts the <tool_call> tags it passed over.

// Python's \s in a str pattern: the 29 characters for which str.isspace() is true (CPython 3.11).
// subtle: JavaScript's \s is another set. It lacks \x1c-\x1f (the information separators) and \x85 (next line),
// which Python counts as whitespace, and adds \ufeff, which Python does not.
const PY_SPACES = new Set(
  "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000",
);
const isPySpace = (ch: string | undefined) => ch !== undefined && PY_SPACES.has(ch);
const OPEN_TAG = "<tool_call>";
const CLOSE_TAG = "</tool_call>";

/** One call the pattern took: the whole match's span and the call's text (the group). */
interface TakenCall {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The study's re.findall(r"<tool_call>\s*(\{.*?)\s*</tool_call>", text, flags=re.S), in one pass. A block counts
 * only if, after optional whitespace, it starts with "{"; the call runs from that "{" to the whitespace before the
 * first </tool_call> after it. An unclosed tag, a list, or a call written as code is no call, and a tag that opens
 * no call is passed over: in "<tool_call>\n<tool_call>\n{...}</tool_call>" the second tag opens the call.
 *
 * The regular expression itself is quadratic on unclosed tags: from each one it scans to the end for a closing tag
 * (20,000 of them took 10 s). But the first closing tag after a "{" is the same search for every later tag, so once
 * it finds none, no later tag can close either and the scan stops; every other search starts past the last one.
 * `scanned` counts the characters each search looked at, for the test that holds it linear.
 */
export function scanToolCalls(reply: string): { readonly calls: readonly TakenCall[]; readonly scanned: number } {
  const calls: TakenCall[] = [];
  let scanned = 0;
  let from = 0;
  for (;;) {
    const open = reply.indexOf(OPEN_TAG, from);
    scanned += (open === -1 ? reply.length : open + OPEN_TAG.length) - from;
    if (open === -1) break;
    // \s* before "{" cannot give back a character ("{" is no whitespace): skip it all.
    let brace = open + OPEN_TAG.length;
    while (brace < reply.length && isPySpace(reply[brace])) brace++;
    scanned += brace - (open + OPEN_TAG.length);
    if (reply[brace] !== "{") {
      from = brace;
      continue;
    }
    const close = reply.indexOf(CLOSE_TAG, brace + 1);
    scanned += (close === -1 ? reply.length : close) - (brace + 1);
    if (close === -1) break;
    // The lazy group stops before the whitespace that precedes the closing tag, keeping at least the "{".
    let textEnd = close;
    while (textEnd > brace + 1 && isPySpace(reply[textEnd - 1])) textEnd--;
    scanned += close - textEnd;
    const end = close + CLOSE_TAG.length;
    calls.push({ start: open, end, text: reply.slice(brace, textEnd) });
    from = end;
  }
  return { calls, scanned };
}

/** The text of each call the study's pattern takes, in the order written. */
export function toolCallBlocks(reply: string): string[] {
  return scanToolCalls(reply).calls.map((c) => c.text);
}

/**
 * Beyond the study: how many <tool_call> tags in a reply opened no call that the pattern took (unclosed, not
 * followed by "{", or a stray tag before the one that did). Tags inside a taken call are part of that call.
 */
export function ignoredCallBlocks(reply: string): number {
  const { calls } = scanToolCalls(reply);
  let ignored = 0;
  // Tags and calls both come in order: one walk over the two lists.
  let c = 0;
  for (let at = reply.indexOf(OPEN_TAG); at !== -1; at = reply.indexOf(OPEN_TAG, at + OPEN_TAG.length)) {
    while (c < calls.length && calls[c]!.end <= at) c++;
    const call = calls[c];
    if (call === undefined || at < call.start) ignored++;
  }
  return ignored;
}
