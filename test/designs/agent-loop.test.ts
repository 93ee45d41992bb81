// Every branch of the agent loop, driven by a scripted runtime that returns chosen replies.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadCorpus } from "../../src/corpus/index.ts";
import { openIndex } from "../../src/search/index.ts";
import { runAgent } from "../../src/designs/agent-loop.ts";
import { MAX_TURNS } from "../../src/designs/limits.ts";
import { runWorkflow } from "../../src/designs/workflow.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import {
  AGENT_SYSTEM_PROMPT,
  SEARCH_FIRST_INSTRUCTION,
  SOURCE_INSTRUCTION,
  WORKFLOW_SYSTEM_PROMPT,
} from "../../src/designs/prompts.ts";
import { FORCED_PREFIX } from "../../src/toolcalls/hermes.ts";
import { fakeIndex, SCRIPTED_QUESTION, scriptedRuntime, toolCallText } from "../helpers/scripted-runtime.ts";
import { DIALECTS } from "../../src/toolcalls/index.ts";

const QUESTION = SCRIPTED_QUESTION;
const call = toolCallText;

test("a reply with no tool call is the answer, after one model call", async () => {
  const runtime = scriptedRuntime(["It rescales.\nSource: flashattention-explained"]);
  const t = await runAgent({ question: QUESTION.question, design: "agent", runtime, index: fakeIndex() });
  assert.equal(t.outcome, "answered");
  assert.equal(t.answer, "It rescales.\nSource: flashattention-explained");
  assert.equal(t.calls.length, 1);
  const r = answerRecord("m", "agent", QUESTION, t);
  assert.deepEqual([r.model_calls, r.tool_calls, r.malformed, r.found], [1, 0, 0, false]);
});

test("two calls in one reply both run, in order, each with its own tool message", async () => {
  const index = fakeIndex();
  const reply = `${call("search_posts", { query: "running maximum" })}\n${call("read_section", { post: "kv-cache-inference", heading: "Prefill and decode" })}`;
  const runtime = scriptedRuntime([reply, "Done. Source: flashattention-explained"]);
  const t = await runAgent({ question: QUESTION.question, design: "agent", runtime, index });
  assert.equal(t.calls[0]?.toolCalls.length, 2);
  assert.deepEqual(index.queries, ["running maximum"]);
  const second = runtime.requests[1]!.messages;
  assert.deepEqual(
    second.map((m) => m.role),
    ["system", "user", "assistant", "tool", "tool"],
  );
  assert.equal(second[2]?.content, reply);
  assert.match(
    second[3]!.content,
    /^\[\{"post": "flashattention-explained", "heading": "The online softmax", "snippet": /,
  );
  assert.match(second[4]!.content, /^\{"post": "kv-cache-inference", "heading": "Prefill and decode", "text": /);
  const r = answerRecord("m", "agent", QUESTION, t);
  assert.deepEqual([r.model_calls, r.tool_calls, r.malformed, r.found], [2, 2, 0, true]);
  assert.deepEqual(r.seen_posts, ["flashattention-explained", "kv-cache-inference"]);
});

test("found: a search showed the right post at any rank; a read of it alone is no find", async () => {
  const question = { ...QUESTION, post: "bm25-hybrid-search", heading: "Reciprocal rank fusion" };
  const searched = scriptedRuntime([call("search_posts", { query: "running maximum rankings" }), "A."]);
  const t = await runAgent({ question: question.question, design: "agent", runtime: searched, index: fakeIndex() });
  assert.deepEqual(
    t.calls[0]!.toolCalls[0]!.shownPosts,
    ["flashattention-explained", "bm25-hybrid-search"],
    "the right post is the second hit",
  );
  assert.equal(answerRecord("m", "agent", question, t).found, true);
  const read = scriptedRuntime([call("read_section", { post: question.post, heading: question.heading }), "A."]);
  const r = await runAgent({ question: question.question, design: "agent", runtime: read, index: fakeIndex() });
  assert.equal(answerRecord("m", "agent", question, r).found, false);
});

test("JSON followed by trailing text parses the first value and ignores the rest", async () => {
  const runtime = scriptedRuntime([
    `<tool_call>{"name": "search_posts", "arguments": {"query": "online softmax"}} and then some</tool_call>`,
    "A.",
  ]);
  const t = await runAgent({ question: QUESTION.question, design: "agent", runtime, index: fakeIndex() });
  assert.equal(t.calls[0]?.toolCalls[0]?.malformed, false);
});

const malformedCases: [string, string, RegExp][] = [
  [
    "invalid JSON",
    "<tool_call>{name: search_posts}</tool_call>",
    /^"error: JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 \(char 1\)"$/,
  ],
  ["an unknown tool", call("browse", { url: "x" }), /^"error: KeyError: 'browse'"$/],
  [
    "missing arguments",
    call("read_section", { post: "x" }),
    /^"error: TypeError: read_section\(\) missing 1 required positional argument: 'heading'"$/,
  ],
  [
    "a wrongly typed argument",
    call("search_posts", { query: 42 }),
    /^"error: TypeError: search_posts\(\) argument 'query' must be str, not int"$/,
  ],
  [
    "an unexpected argument",
    call("search_posts", { q: "x" }),
    /^"error: TypeError: search_posts\(\) got an unexpected keyword argument 'q'"$/,
  ],
  // CPython 3.11.7: f(**{"it's": 1}) says 'it's', the key's str between quotes, not its repr "it's"
  [
    "an unexpected argument with a quote in its name",
    call("search_posts", { "it's": "x" }),
    /^"error: TypeError: search_posts\(\) got an unexpected keyword argument 'it's'"$/,
  ],
  [
    "an unexpected argument with a backslash in its name (one, not repr's two)",
    call("search_posts", { "a\\b": "x" }),
    /^"error: TypeError: search_posts\(\) got an unexpected keyword argument 'a\\\\b'"$/,
  ],
  [
    "an unexpected argument named by an unprintable character (kept raw, then escaped by json.dumps)",
    call("search_posts", { "\u2029": "x" }),
    /^"error: TypeError: search_posts\(\) got an unexpected keyword argument '\\u2029'"$/,
  ],
  ["no arguments key", `<tool_call>{"name": "search_posts"}</tool_call>`, /^"error: KeyError: 'arguments'"$/],
  [
    "arguments that are not an object",
    call("search_posts", ["x"]),
    /^"error: TypeError: __main__.search_posts\(\) argument after \*\* must be a mapping, not list"$/,
  ],
  [
    "a __proto__ argument",
    `<tool_call>{"name": "search_posts", "arguments": {"__proto__": {"query": "x"}, "query": "y"}}</tool_call>`,
    /^"error: TypeError: search_posts\(\) got an unexpected keyword argument '__proto__'"$/,
  ],
  [
    "a post that does not exist",
    call("read_section", { post: "no-such-post", heading: "Intro" }),
    /^"error: LookupError: no section 'Intro' in post 'no-such-post'"$/,
  ],
  [
    "a path-like post name",
    call("read_section", { post: "../../etc/passwd", heading: "root" }),
    /^"error: LookupError: no section 'root' in post '..\/..\/etc\/passwd'"$/,
  ],
];
for (const [what, reply, expected] of malformedCases) {
  test(`${what} becomes an error tool result and counts as malformed`, async () => {
    const runtime = scriptedRuntime([reply, "Answer. Source: none"]);
    const t = await runAgent({ question: QUESTION.question, design: "agent", runtime, index: fakeIndex() });
    const toolCall = t.calls[0]?.toolCalls[0];
    assert.equal(toolCall?.malformed, true);
    assert.match(toolCall!.result, expected);
    assert.equal(runtime.requests[1]?.messages.at(-1)?.content, toolCall!.result);
    assert.equal(t.outcome, "answered");
    assert.equal(answerRecord("m", "agent", QUESTION, t).malformed, 1);
  });
}

test("an unclosed <tool_call> is no call: the reply is the answer", async () => {
  const runtime = scriptedRuntime([`<tool_call>\n{"name": "search_posts", "arguments": {"query": "x"}}`]);
  const t = await runAgent({ question: QUESTION.question, design: "agent", runtime, index: fakeIndex() });
  assert.equal(t.outcome, "answered");
  assert.equal(t.calls.length, 1);
  const r = answerRecord("m", "agent", QUESTION, t);
  assert.deepEqual([r.tool_calls, r.ignored_call_blocks], [0, 1]);
});

const notCalls: [string, string][] = [
  ["a list", `<tool_call>\n[{"name": "search_posts", "arguments": {"query": "x"}}]\n</tool_call>`],
  ["a call written as code", `<tool_call>\nsearch_posts("x")\n</tool_call>`],
];
for (const [what, reply] of notCalls) {
  test(`a block holding ${what} is no call, as in the study's pattern: the reply is the answer`, async () => {
    const runtime = scriptedRuntime([reply]);
    const t = await runAgent({ question: QUESTION.question, design: "agent", runtime, index: fakeIndex() });
    assert.deepEqual([t.outcome, t.answer, t.calls.length], ["answered", reply, 1]);
    assert.equal(answerRecord("m", "agent", QUESTION, t).ignored_call_blocks, 1);
  });
}

test("a doubled opening tag (the forced prefix, then the model's own) still runs the call inside", async () => {
  const runtime = scriptedRuntime([
    `<tool_call>\n{"name": "search_posts", "arguments": {"query": "running maximum"}}\n</tool_call>`,
    "A.",
  ]);
  const t = await runAgent({ question: QUESTION.question, design: "agent-forced", runtime, index: fakeIndex() });
  assert.equal(t.calls[0]?.reply.startsWith("<tool_call>\n<tool_call>\n{"), true);
  const r = answerRecord("m", "agent-forced", QUESTION, t);
  assert.deepEqual([r.tool_calls, r.malformed, r.found, r.ignored_call_blocks], [1, 0, true, 1]);
});

test(`still calling tools after ${MAX_TURNS} turns ends in "(ran out of turns)"`, async () => {
  const runtime = scriptedRuntime(Array.from({ length: MAX_TURNS }, () => call("search_posts", { query: "softmax" })));
  const t = await runAgent({ question: QUESTION.question, design: "agent", runtime, index: fakeIndex() });
  assert.equal(t.outcome, "ran-out-of-turns");
  assert.equal(t.answer, "(ran out of turns)");
  assert.equal(runtime.requests.length, MAX_TURNS);
  const r = answerRecord("m", "agent", QUESTION, t);
  assert.deepEqual([r.model_calls, r.tool_calls], [6, 6]);
  assert.equal(r.last_context, t.calls[5]!.record.tokensRead);
  assert.equal(
    r.tokens_read,
    t.calls.reduce((a, c) => a + c.record.tokensRead, 0),
  );
});

test("the forced design starts only its first reply with <tool_call>\\n, and the prefix stays in the transcript", async () => {
  const runtime = scriptedRuntime([
    `{"name": "search_posts", "arguments": {"query": "running maximum"}}\n</tool_call>`,
    "A. Source: flashattention-explained",
  ]);
  const t = await runAgent({ question: QUESTION.question, design: "agent-forced", runtime, index: fakeIndex() });
  assert.equal(runtime.requests[0]?.prefix, FORCED_PREFIX);
  assert.equal(runtime.requests[1]?.prefix, undefined);
  assert.equal(runtime.requests[1]?.messages[2]?.content.startsWith("<tool_call>\n{"), true);
  assert.equal(answerRecord("m", "agent-forced", QUESTION, t).found, true);
});

test("system prompts: the agents and the workflow ask for the source in the same words", async () => {
  const plain = scriptedRuntime(["x"]);
  const first = scriptedRuntime(["x"]);
  await runAgent({ question: "q?", design: "agent", runtime: plain, index: fakeIndex() });
  await runAgent({ question: "q?", design: "agent-search-first", runtime: first, index: fakeIndex() });
  assert.equal(plain.requests[0]?.messages[0]?.content, AGENT_SYSTEM_PROMPT);
  assert.equal(first.requests[0]?.messages[0]?.content, `${AGENT_SYSTEM_PROMPT} ${SEARCH_FIRST_INSTRUCTION}`);
  assert.ok(AGENT_SYSTEM_PROMPT.endsWith(SOURCE_INSTRUCTION) && WORKFLOW_SYSTEM_PROMPT.endsWith(SOURCE_INSTRUCTION));
  assert.equal(plain.requests[0]?.tools?.map((t) => t.function.name).join(), "search_posts,read_section");
});

test("a failed call (context overflow) ends the run with its error, not with answer text", async () => {
  const runtime = scriptedRuntime([
    { stopReason: "context-overflow", error: "prompt has 5000 tokens, the context 4096" },
  ]);
  const t = await runAgent({ question: QUESTION.question, design: "agent", runtime, index: fakeIndex() });
  assert.deepEqual(t, {
    calls: t.calls,
    outcome: "error",
    answer: "",
    error: "prompt has 5000 tokens, the context 4096",
  });
});

test("the workflow searches with the question, shows three hits, makes one call without tools", async () => {
  const index = fakeIndex();
  const runtime = scriptedRuntime(["It keeps a running sum.\nSource: flashattention-explained"]);
  const t = await runWorkflow({ question: QUESTION.question, runtime, index });
  assert.deepEqual(index.queries, [QUESTION.question]);
  assert.equal(runtime.requests[0]?.tools, undefined);
  assert.equal(runtime.requests[0]?.messages[0]?.content, WORKFLOW_SYSTEM_PROMPT);
  assert.match(runtime.requests[0]!.messages[1]!.content, /^Search results:\n\[\{"post": "flashattention-explained"/);
  const r = answerRecord("m", "workflow", QUESTION, t);
  assert.deepEqual([r.model_calls, r.tool_calls, r.found], [1, 1, true]);
});

test("another dialect: its forced prefix, its calls, its messages back; hermes' pattern plays no part", async () => {
  const index = fakeIndex();
  const runtime = scriptedRuntime([
    'search_posts", "parameters": {"query": "running maximum"}}',
    "<tool_call>\n{}\n</tool_call> It rescales.\nSource: flashattention-explained",
  ]);
  const t = await runAgent({
    question: QUESTION.question,
    design: "agent-forced",
    runtime,
    index,
    dialect: DIALECTS.llama3,
  });
  assert.equal(runtime.requests[0]?.prefix, '{"name": "');
  assert.deepEqual(index.queries, ["running maximum"]);
  assert.equal(t.outcome, "answered"); // a <tool_call> is no call in Llama 3's format
  assert.deepEqual(
    runtime.requests[1]?.messages.slice(2).map((m) => m.role),
    ["assistant", "tool"],
  );
});

test("a dialect whose template takes no tools gets none in the request; they are in its system text", async () => {
  const runtime = scriptedRuntime(["It rescales.\nSource: flashattention-explained"]);
  await runAgent({
    question: QUESTION.question,
    design: "agent",
    runtime,
    index: fakeIndex(),
    dialect: DIALECTS.emulated,
  });
  assert.equal(runtime.requests[0]?.tools, undefined);
  assert.match(runtime.requests[0]?.messages[0]?.content ?? "", /<tools>\n\{"type": "function"/);
});

test("on a real BM25 index: search_posts and the workflow show three hits of 60 words, read_section the section asked", async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), "blogqa-loop-index-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const posts = path.join(root, "posts");
  mkdirSync(posts);
  const words = (n: number, from: number) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(" ");
  // Four sections about softmax, the first 80 words long; read_section asks for the second of three in a row.
  writeFileSync(
    path.join(posts, "alpha.mdx"),
    `---\ntitle: Alpha\n---\n\n## Softmax first\n\nSoftmax softmax softmax ${words(77, 0)}\n\n## Two\n\nSoftmax here ${words(20, 100)}\n\n` +
      `## Three\n\nSoftmax there ${words(20, 200)}\n`,
  );
  writeFileSync(path.join(posts, "beta.mdx"), `---\ntitle: Beta\n---\n\n## Four\n\nSoftmax again ${words(20, 300)}\n`);
  const corpus = await loadCorpus(posts);
  const cacheDir = path.join(root, "cache");
  const index = await openIndex(corpus, { retriever: "bm25", embeddingModel: "/nonexistent", dtype: "fp32", cacheDir });
  const text = (post: string, heading: string) =>
    corpus.sections.find((s) => s.post === post && s.heading === heading)!.text;
  // What a hit must show: its section's first 60 words, counted here, not by the search's own snippet function.
  const first60 = (hit: { post: string; heading: string }) =>
    text(hit.post, hit.heading).split(/\s+/).filter(Boolean).slice(0, 60).join(" ");

  const reply = `${call("search_posts", { query: "softmax" })}\n${call("read_section", { post: "alpha", heading: "Two" })}`;
  const runtime = scriptedRuntime([reply, "Done. Source: alpha"]);
  const run = await runAgent({ question: QUESTION.question, design: "agent", runtime, index });
  const [search, read] = run.calls[0]!.toolCalls;
  const hits = JSON.parse(search!.result) as { post: string; heading: string; snippet: string }[];
  assert.equal(hits.length, 3);
  for (const hit of hits) assert.equal(hit.snippet, first60(hit));
  assert.ok(
    hits.some((h) => h.heading === "Softmax first"),
    "the 80-word section is a hit, its snippet cut at 60 words",
  );
  assert.deepEqual(JSON.parse(read!.result), { post: "alpha", heading: "Two", text: text("alpha", "Two") });
  assert.deepEqual(read!.shownPosts, ["alpha"]);

  const workflow = scriptedRuntime(["Done. Source: alpha"]);
  await runWorkflow({ question: "What does softmax do?", runtime: workflow, index });
  const shown = /^Search results:\n(.*)\n\nQuestion: /s.exec(workflow.requests[0]!.messages[1]!.content)![1]!;
  const workflowHits = JSON.parse(shown) as { post: string; heading: string; snippet: string }[];
  assert.equal(workflowHits.length, 3);
  for (const hit of workflowHits) assert.equal(hit.snippet, first60(hit));
});
