// parse-calls against CPython: test/fixtures/tool-call-replies.json holds hand-written replies and, for each, what
// CPython 3.11 made of it with the study's pattern, raw_decode and tool(**arguments) (make_tool_call_replies.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { TOOL_CALL_REPLIES } from "../helpers/tool-call-replies.ts";
import { parseCalls } from "../../src/designs/parse-calls.ts";
import { DIALECTS } from "../../src/toolcalls/index.ts";
import { pyJsonDumps, rawDecode, toPlainJson } from "../../src/python/index.ts";

const cases = TOOL_CALL_REPLIES;

for (const c of cases) {
  test(`parse-calls: ${c.what}`, () => {
    assert.equal(pyJsonDumps(parseCalls(c.reply)), c.expected);
  });
}

test("the fixture covers calls that run, calls that fail, replies with none, and ignored tags", () => {
  type Result = { calls: { error: string | null }[]; ignored_call_blocks: number };
  const results = cases.map((c) => toPlainJson(rawDecode(c.expected).value) as Result);
  assert.ok(cases.length >= 40);
  assert.ok(results.filter((r) => r.calls.some((call) => call.error === null)).length >= 10);
  assert.ok(results.filter((r) => r.calls.some((call) => call.error !== null)).length >= 10);
  assert.ok(results.filter((r) => r.calls.length === 0).length >= 5);
  assert.ok(results.filter((r) => r.ignored_call_blocks > 0).length >= 5);
});

test("parse-calls --format: another dialect's calls, and whether the reply looks like a call in a third", () => {
  const reply = '<|python_tag|>{"name": "search_posts", "parameters": {"query": "kv"}}';
  assert.equal(
    pyJsonDumps(parseCalls(reply, DIALECTS.llama3)),
    '{"calls": [{"raw": "{\\"name\\": \\"search_posts\\", \\"parameters\\": {\\"query\\": \\"kv\\"}}", ' +
      '"name": "search_posts", "arguments": {"query": "kv"}, "error": null}], "tool_format": "llama3", ' +
      '"looks_like_other_format": false}',
  );
  assert.equal(
    pyJsonDumps(parseCalls('<tool_call>\n{"name": "x"}\n</tool_call>', DIALECTS.phi4)),
    '{"calls": [], "tool_format": "phi4", "looks_like_other_format": true}',
  );
  // The study's dialect answers exactly as before.
  assert.deepEqual(parseCalls(cases[0]!.reply, DIALECTS.hermes), parseCalls(cases[0]!.reply));
});
