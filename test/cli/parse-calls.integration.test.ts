// The parse-calls command prints what CPython computed for the same replies (test/fixtures/tool-call-replies.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { TOOL_CALL_REPLIES } from "../helpers/tool-call-replies.ts";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";

const cases = TOOL_CALL_REPLIES;
const byWhat = (what: string) => cases.find((c) => c.what === what)!;

// The command on stdin, in process: the replies themselves are checked in test/designs/parse-calls.test.ts.
test("parse-calls --json prints json.dumps of CPython's result for the same reply", async () => {
  const c = byWhat("three calls with text between, one of them bad");
  const result = await runCliInProcess(["parse-calls", "--json"], { input: c.reply });
  assert.equal(result.stderr, "");
  assert.deepEqual([result.status, result.stdout], [0, `${c.expected}\n`]);
});

test("parse-calls without --json says which calls run, what the model reads, and what the pattern passed over", async () => {
  const result = await runCliInProcess(["parse-calls"], { input: byWhat("a good call, then an unclosed one").reply });
  assert.equal(result.status, 0);
  assert.equal(
    result.stdout,
    [
      "call 1: would run search_posts",
      `  raw: "{\\"name\\": \\"search_posts\\", \\"arguments\\": {\\"query\\": \\"x\\"}}"`,
      "  arguments: {'query': 'x'}",
      "1 call (0 malformed): the loop runs them and generates again",
      "<tool_call> tags the study's pattern passed over: 1",
      "",
    ].join("\n"),
  );
});
