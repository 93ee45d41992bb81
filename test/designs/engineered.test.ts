// Every branch the engineered designs add, driven by the scripted runtime: validation, the citation repair, the
// constrained first call. The study's own designs are tested in agent-loop.test.ts and must not change.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runDesign } from "../../src/designs/run-design.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import { answerFromLine } from "../../src/runs/answer-line.ts";
import { FIRST_CALL_CONSTRAINT } from "../../src/designs/engineered/designs.ts";
import { sourceProblem } from "../../src/designs/engineered/cite-check.ts";
import { validateCall } from "../../src/designs/engineered/validate-call.ts";
import { AGENT_SYSTEM_PROMPT, SEARCH_FIRST_INSTRUCTION, citationRepairPrompt } from "../../src/designs/prompts.ts";
import { FORCED_PREFIX } from "../../src/toolcalls/hermes.ts";
import { fakeIndex, SCRIPTED_QUESTION, scriptedRuntime, toolCallText } from "../helpers/scripted-runtime.ts";

const QUESTION = SCRIPTED_QUESTION;
const call = toolCallText;
/** A forced first reply: the runtime puts "<tool_call>\n" in front. */
const forcedCall = (name: string, args: unknown) => `${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

test("agent-validated: a call failing validation gets a precise error, counts as malformed; the corrected call runs", async () => {
  const tools = fakeIndex();
  const runtime = scriptedRuntime([
    forcedCall("read_section", { post: "flashattention-explained", heading: "Online softmax" }),
    call("read_section", { post: "flashattention-explained", heading: "The online softmax" }),
    "It rescales the sum.\nSource: flashattention-explained",
  ]);
  const t = await runDesign("agent-validated", { question: QUESTION.question, runtime, index: tools });
  const [refused, corrected] = [t.calls[0]!.toolCalls[0]!, t.calls[1]!.toolCalls[0]!];
  assert.equal(refused.validation, "no-such-heading");
  assert.equal(refused.malformed, true);
  assert.equal(
    refused.result,
    `"error: ValidationError: post \\"flashattention-explained\\" has no heading \\"Online softmax\\"; ` +
      `its headings are \\"The online softmax\\""`,
  );
  assert.equal(
    runtime.requests[1]!.messages.at(-1)!.content,
    refused.result,
    "the model reads the error as the tool result",
  );
  assert.deepEqual(
    [corrected.validation, corrected.malformed, corrected.shownPosts],
    [undefined, false, ["flashattention-explained"]],
  );
  const r = answerRecord("m", "agent-validated", QUESTION, t);
  assert.deepEqual([r.model_calls, r.tool_calls, r.malformed, r.outcome], [3, 2, 1, "answered"]);
  assert.deepEqual(r.validation_errors, { "no-such-heading": 1 });
  // The forced design's prompts and prefix.
  assert.equal(runtime.requests[0]!.messages[0]!.content, `${AGENT_SYSTEM_PROMPT} ${SEARCH_FIRST_INSTRUCTION}`);
  assert.equal(runtime.requests[0]!.prefix, FORCED_PREFIX);
});

const validationCases: [string, string, string, RegExp][] = [
  ["bad JSON", "{name: search_posts}", "not-json", /^the call is not JSON \(Expecting property name/],
  ["a list", `[{"name": "search_posts"}]`, "not-an-object", /^a call is one JSON object/],
  [
    "an unknown tool",
    `{"name": "browse", "arguments": {}}`,
    "unknown-tool",
    /^there is no tool "browse"; the tools are search_posts\(query\) and read_section\(post, heading\)$/,
  ],
  [
    "arguments that are a string",
    `{"name": "search_posts", "arguments": "kv cache"}`,
    "wrong-type",
    /^"arguments" must be an object of strings, as in search_posts\(query\)$/,
  ],
  [
    "an extra property",
    `{"name": "search_posts", "arguments": {"query": "x", "k": 5}}`,
    "extra-argument",
    /^search_posts takes no argument "k"; call search_posts\(query\)$/,
  ],
  [
    "a missing property",
    `{"name": "read_section", "arguments": {"post": "kv-cache-inference"}}`,
    "missing-argument",
    /^read_section needs "heading"/,
  ],
  [
    "a number for a string",
    `{"name": "search_posts", "arguments": {"query": 42}}`,
    "wrong-type",
    /^"query" must be a string, not number$/,
  ],
  [
    "a post that does not exist",
    `{"name": "read_section", "arguments": {"post": "kv-cache-inferense", "heading": "x"}}`,
    "no-such-post",
    /^there is no post "kv-cache-inferense" \(did you mean "kv-cache-inference"\?\)/,
  ],
];
for (const [what, raw, kind, message] of validationCases) {
  test(`validation names ${what} as ${kind}`, () => {
    const error = validateCall(raw, fakeIndex());
    assert.equal(error?.kind, kind);
    assert.match(error!.message, message);
  });
}

test("validation passes a well-formed call of a real section, which then runs exactly as the forced design's", async () => {
  const script = [forcedCall("search_posts", { query: "running maximum" }), "A.\nSource: flashattention-explained"];
  assert.equal(validateCall(`{"name": "search_posts", "arguments": {"query": "x"}}`, fakeIndex()), undefined);
  const validated = await runDesign("agent-validated", {
    question: QUESTION.question,
    runtime: scriptedRuntime(script),
    index: fakeIndex(),
  });
  const forced = await runDesign("agent-forced", {
    question: QUESTION.question,
    runtime: scriptedRuntime(script),
    index: fakeIndex(),
  });
  const { checks, ...rest } = validated;
  assert.deepEqual(checks, ["validate-calls"], "the transcript says its calls were validated");
  assert.deepEqual(rest, forced);
});

test("agent-cite-checked: a Source line naming a post the run never saw is repaired once; the repair is scored", async () => {
  const runtime = scriptedRuntime([
    forcedCall("search_posts", { query: "running maximum" }),
    "It rescales.\nSource: kv-cache-inference",
    "It rescales.\nSource: flashattention-explained",
  ]);
  const t = await runDesign("agent-cite-checked", { question: QUESTION.question, runtime, index: fakeIndex() });
  assert.equal(t.answer, "It rescales.\nSource: flashattention-explained");
  const problem = "names kv-cache-inference, which your search results never showed";
  assert.deepEqual(t.repair, { firstAnswer: "It rescales.\nSource: kv-cache-inference", problem });
  const repairRequest = runtime.requests[2]!;
  assert.deepEqual(repairRequest.messages.slice(-2), [
    { role: "assistant", content: "It rescales.\nSource: kv-cache-inference" },
    { role: "user", content: citationRepairPrompt(problem, ["flashattention-explained"]) },
  ]);
  assert.equal(
    repairRequest.messages.length,
    runtime.requests[1]!.messages.length + 2,
    "the repair extends the last call's transcript",
  );
  assert.equal(repairRequest.tools?.length, 2, "the agent keeps its tools");
  const r = answerRecord("m", "agent-cite-checked", QUESTION, t);
  assert.deepEqual(
    [r.repair_turns, r.first_answer, r.repair_tokens_read, r.model_calls],
    [1, t.repair!.firstAnswer, t.calls[2]!.record.tokensRead, 3],
  );
  assert.equal(
    r.tokens_read,
    t.calls.reduce((a, c) => a + c.record.tokensRead, 0),
    "the repair's tokens count as read",
  );
});

test("agent-cite-checked: a repair can make it worse (a right but unseen post traded for a seen wrong one)", async () => {
  const runtime = scriptedRuntime([
    forcedCall("search_posts", { query: "prefill decode" }),
    "It rescales.\nSource: flashattention-explained",
    "It rescales.\nSource: kv-cache-inference",
  ]);
  const t = await runDesign("agent-cite-checked", { question: QUESTION.question, runtime, index: fakeIndex() });
  assert.equal(t.repair?.problem, "names flashattention-explained, which your search results never showed");
  assert.equal(t.answer, "It rescales.\nSource: kv-cache-inference");
});

test("agent-cite-checked: a second wrong answer is not repaired again", async () => {
  const runtime = scriptedRuntime([
    forcedCall("search_posts", { query: "running maximum" }),
    "It rescales.",
    "It rescales, truly.",
  ]);
  const t = await runDesign("agent-cite-checked", { question: QUESTION.question, runtime, index: fakeIndex() });
  assert.equal(runtime.requests.length, 3, "one repair call at most");
  assert.deepEqual([t.answer, t.repair?.problem, t.outcome], ["It rescales, truly.", "is missing", "answered"]);
});

test("agent-cite-checked: an answer citing one post it saw is left alone, and costs nothing", async () => {
  const runtime = scriptedRuntime([
    forcedCall("search_posts", { query: "running maximum" }),
    "It rescales.\nSource: flashattention-explained",
  ]);
  const t = await runDesign("agent-cite-checked", { question: QUESTION.question, runtime, index: fakeIndex() });
  assert.deepEqual([t.repair, runtime.requests.length], [undefined, 2]);
  const r = answerRecord("m", "agent-cite-checked", QUESTION, t);
  assert.deepEqual([r.repair_turns, r.repair_tokens_read, r.first_answer], [0, 0, undefined]);
});

test("agent-cite-checked: a run that ran out of turns is not repaired", async () => {
  const runtime = scriptedRuntime([
    forcedCall("search_posts", { query: "softmax" }),
    ...Array.from({ length: 5 }, () => call("search_posts", { query: "softmax" })),
  ]);
  const t = await runDesign("agent-cite-checked", { question: QUESTION.question, runtime, index: fakeIndex() });
  assert.deepEqual([t.outcome, t.repair, runtime.requests.length], ["ran-out-of-turns", undefined, 6]);
});

test("a failed repair call fails the run with its error, the first answer kept in the transcript", async () => {
  const runtime = scriptedRuntime([
    forcedCall("search_posts", { query: "running maximum" }),
    "It rescales.",
    { stopReason: "context-overflow", error: "too long" },
  ]);
  const t = await runDesign("agent-cite-checked", { question: QUESTION.question, runtime, index: fakeIndex() });
  assert.deepEqual(
    [t.outcome, t.answer, t.outcome === "error" && t.error, t.repair?.firstAnswer],
    ["error", "", "too long", "It rescales."],
  );
});

test("workflow-cite-checked: the workflow's answer gets the same repair, without tools", async () => {
  const runtime = scriptedRuntime([
    "It keeps a running sum.\nSource: flashattention-explained, kv-cache-inference",
    "It keeps a running sum.\nSource: flashattention-explained",
  ]);
  const t = await runDesign("workflow-cite-checked", { question: QUESTION.question, runtime, index: fakeIndex() });
  assert.equal(t.repair?.problem, "names 2 posts (flashattention-explained, kv-cache-inference), not one");
  assert.equal(runtime.requests[1]!.tools, undefined);
  assert.equal(t.calls[1]!.withTools, false);
  const r = answerRecord("m", "workflow-cite-checked", QUESTION, t);
  assert.deepEqual([r.model_calls, r.tool_calls, r.repair_turns], [2, 1, 1]);
});

test("the source check: missing, invented, several, unseen, and one seen post", () => {
  const all = ["kv-cache-inference", "flashattention-explained", "bm25-hybrid-search"];
  const seen = ["flashattention-explained"];
  assert.equal(sourceProblem("No source.", seen, all), "is missing");
  assert.equal(sourceProblem("A.\nSource: <post>", seen, all), "names no post of the blog");
  assert.equal(
    sourceProblem("Source: kv-cache-inference\nSource: bm25-hybrid-search", seen, all),
    "names bm25-hybrid-search, which your search results never showed",
  );
  assert.equal(sourceProblem("A.\nSource: flashattention-explained", seen, all), undefined);
});

test("agent-constrained: only the first call carries the tool-call constraint, after the forced prefix", async () => {
  const runtime = scriptedRuntime([
    forcedCall("search_posts", { query: "running maximum" }),
    "A.\nSource: flashattention-explained",
  ]);
  const t = await runDesign("agent-constrained", { question: QUESTION.question, runtime, index: fakeIndex() });
  assert.deepEqual(
    [runtime.requests[0]!.prefix, runtime.requests[0]!.constraint],
    [FORCED_PREFIX, FIRST_CALL_CONSTRAINT],
  );
  assert.deepEqual([runtime.requests[1]!.prefix, runtime.requests[1]!.constraint], [undefined, undefined]);
  assert.deepEqual(t.calls[0]!.constraint, FIRST_CALL_CONSTRAINT, "the transcript says the call was constrained");
  assert.equal(answerRecord("m", "agent-constrained", QUESTION, t).found, true);
});

test("a log line's new fields are checked on reading: refusals by kind must be known kinds with whole counts", async () => {
  const runtime = scriptedRuntime([forcedCall("search_posts", { query: 7 }), "A.\nSource: flashattention-explained"]);
  const line = JSON.parse(
    JSON.stringify(
      answerRecord(
        "m",
        "agent-validated",
        QUESTION,
        await runDesign("agent-validated", { question: QUESTION.question, runtime, index: fakeIndex() }),
      ),
    ),
  );
  assert.ok("record" in answerFromLine(line));
  assert.deepEqual(answerFromLine({ ...line, validation_errors: { "made-up": 1 } }), {
    mismatch: {
      path: "validation_errors.made-up",
      problem:
        "not one of not-json, not-an-object, unknown-tool, missing-argument, extra-argument, wrong-type, " +
        "no-such-post, no-such-heading",
    },
  });
  assert.equal("mismatch" in answerFromLine({ ...line, validation_errors: { "wrong-type": 1.5 } }), true);
});
