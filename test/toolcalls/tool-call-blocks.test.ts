// The study's pattern found in one pass: the same blocks as the regular expression, and work linear in the reply's
// length however many tags are left unclosed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ignoredCallBlocks, scanToolCalls, toolCallBlocks } from "../../src/toolcalls/tool-call-blocks.ts";

// The study's re.findall(r"<tool_call>\s*(\{.*?)\s*</tool_call>", text, flags=re.S), Python's \s spelled out.
const PY_SPACE = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const STUDY = new RegExp(`<tool_call>${PY_SPACE}*(\\{[^]*?)${PY_SPACE}*</tool_call>`, "g");
const byRegex = (reply: string) => [...reply.matchAll(STUDY)].map((m) => m[1]!);

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

test("the scan takes exactly the blocks the study's pattern takes, on edge cases and random replies", () => {
  const cases = [
    "",
    `${OPEN}{"a": 1}${CLOSE}`,
    `${OPEN}\n<tool_call>\n{"a": 1}\n${CLOSE}`,
    `${OPEN} \u3000{ }\u2028\u0085${CLOSE} ${OPEN}{${CLOSE}`,
    `${OPEN}{}${CLOSE}`,
    `${OPEN}{${CLOSE}${CLOSE}`,
    `${OPEN}\ufeff{"a": 1}${CLOSE}`,
    `${OPEN}  {  \x1c${CLOSE}`,
    `${OPEN}[1]${CLOSE}${OPEN}{"b": ${OPEN}{}} ${CLOSE}`,
    `${OPEN}{"a": 1}`,
    `${CLOSE}${OPEN}{x${OPEN}y ${CLOSE}z`,
  ];
  for (const reply of cases) assert.deepEqual(toolCallBlocks(reply), byRegex(reply), JSON.stringify(reply));
  // Random replies over an alphabet of tag pieces, braces and both kinds of whitespace.
  const pieces = [OPEN, CLOSE, "{", "}", " ", "\n", "\x1c", "\ufeff", "\u0085", "x", "<tool_", "call>", "<"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 3000; i++) {
    const reply = Array.from({ length: next() % 24 }, () => pieces[next() % pieces.length]).join("");
    assert.deepEqual(toolCallBlocks(reply), byRegex(reply), JSON.stringify(reply));
  }
});

test("the work is linear: every character is looked at a bounded number of times, unclosed tags or not", () => {
  const shapes = {
    unclosed: OPEN.repeat(20_000),
    "unclosed with braces": `${OPEN} {`.repeat(20_000),
    "closed calls": `${OPEN}{"a": 1}${CLOSE}`.repeat(20_000),
    "one close at the end": `${`${OPEN}{ `.repeat(20_000)}${CLOSE}`,
    "stray closes": `${CLOSE}${OPEN}x`.repeat(20_000),
  };
  for (const [shape, reply] of Object.entries(shapes)) {
    const { scanned } = scanToolCalls(reply);
    assert.ok(scanned <= 2 * reply.length, `${shape}: ${scanned} characters looked at for ${reply.length}`);
  }
  assert.equal(ignoredCallBlocks(OPEN.repeat(20_000)), 20_000);
  assert.equal(ignoredCallBlocks(`${OPEN}{"a": 1}${CLOSE}`.repeat(20_000)), 0);
});

test("sanity: 20,000 unclosed tags and 20,000 calls are counted within two seconds", () => {
  const started = performance.now();
  assert.equal(toolCallBlocks(OPEN.repeat(20_000)).length, 0);
  assert.equal(ignoredCallBlocks(`${OPEN}{}${CLOSE}`.repeat(20_000)), 0);
  assert.ok(performance.now() - started < 2000);
});
