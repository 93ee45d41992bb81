// --server-mode chat: the agent loop through /v1/chat/completions. The branch where the server returns tool_calls is
// tested with the real llama-server's answers, recorded by scripts/record-chat-fixture.ts into
// test/fixtures/llama-server-chat.json and replayed here by a fake server; the cases llama-server cannot produce (its
// grammar holds names and arguments to the schemas: an unknown tool, a missing argument) with hand-built answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openServerModel, type ChatRuntime } from "../../src/llm/index.ts";
import type { ServerModelOptions } from "../../src/llm/server-model.ts";
import { runAgent } from "../../src/designs/agent-loop.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import { answerFromLine } from "../../src/runs/answer-line.ts";
import { modelDialect, openaiChat } from "../../src/toolcalls/index.ts";
import { runDesign } from "../../src/designs/run-design.ts";
import { withMaxTokens } from "../../src/runs/sampling.ts";
import { firstDifference } from "../../src/runs/audit.ts";
import type { Question } from "../../src/corpus/types.ts";
import { UserError } from "../../src/common/errors.ts";
import { fakeIndex } from "../helpers/scripted-runtime.ts";
import {
  startFakeServer,
  type CompletionCall,
  type FakeAnswer,
  type FakeServer,
} from "../helpers/fake-openai-server.ts";
import { repoRoot } from "../helpers/run-cli.ts";

interface Exchange {
  readonly design: string;
  readonly request: Record<string, unknown>;
  readonly status: number;
  readonly response: Record<string, unknown>;
}
const fixture = JSON.parse(readFileSync(path.join(repoRoot, "test", "fixtures", "llama-server-chat.json"), "utf8")) as {
  readonly question: string;
  readonly max_tokens: number;
  readonly exchanges: readonly Exchange[];
};
const recorded = (design: string) => fixture.exchanges.filter((e) => e.design === design);

const QUESTION: Question = {
  id: "q1",
  question: fixture.question,
  post: "flashattention-explained",
  heading: "The online softmax",
};

function options(server: FakeServer): ServerModelOptions {
  return {
    url: server.url,
    model: "tiny",
    mode: "chat",
    timeoutSeconds: 5,
    retries: 2,
    backoffMs: 10,
    repetitionPenalty: "none",
    reuseCache: true,
    cacheDir: mkdtempSync(path.join(tmpdir(), "blogqa-chat-")),
  };
}

/** A fake server answering the n-th chat request with `answers[n-1]`, and the runtime that talks to it. */
async function withChat(
  answers: readonly FakeAnswer[],
  body: (runtime: ChatRuntime, server: FakeServer) => Promise<void>,
  maxTokens = fixture.max_tokens,
) {
  const server = await startFakeServer((call: CompletionCall) => answers[call.n - 1] ?? { status: 404, json: {} });
  try {
    const model = await openServerModel(options(server));
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    await body(withMaxTokens(runtime!, maxTokens), server);
  } finally {
    await server.kill();
  }
}

const replay = (exchanges: readonly Exchange[]) => exchanges.map((e) => ({ status: e.status, json: e.response }));
const message = (e: Exchange) => (e.response.choices as { message: Record<string, unknown> }[])[0]!.message;

test("recorded llama-server: the forced design sends exactly the recorded requests, required on the first only", async () => {
  const exchanges = recorded("agent-forced");
  await withChat(replay(exchanges), async (runtime, server) => {
    await runAgent({
      question: QUESTION.question,
      design: "agent-forced",
      runtime,
      index: fakeIndex(),
      dialect: openaiChat,
    });
    assert.equal(server.calls.length, exchanges.length);
    for (const [i, call] of server.calls.entries()) {
      assert.equal(call.path, "/v1/chat/completions");
      // Byte for byte what the real server got when it gave the answers replayed here.
      assert.deepEqual(call.body, exchanges[i]!.request, `request ${i + 1}`);
      assert.equal(call.body.tool_choice, i === 0 ? "required" : undefined);
    }
  });
});

test("recorded llama-server: its tool_calls run, go back with their ids, and a cut-short call is malformed", async () => {
  const exchanges = recorded("agent-forced");
  await withChat(replay(exchanges), async (runtime) => {
    const transcript = await runAgent({
      question: QUESTION.question,
      design: "agent-forced",
      runtime,
      index: fakeIndex(),
      dialect: openaiChat,
    });
    const calls = transcript.calls;
    assert.equal(calls.length, exchanges.length);
    assert.equal(calls[0]!.toolChoice, "required");
    assert.ok(calls.slice(1).every((c) => c.toolChoice === undefined));
    // Every answer is logged whole, as the server sent it.
    for (const [i, call] of calls.entries())
      if (exchanges[i]!.status === 200) assert.deepEqual(call.record.response, exchanges[i]!.response);
    // A call the server parsed, its arguments a JSON string: run as the study runs one.
    const first = message(exchanges[0]!);
    const returned = first.tool_calls as { id: string; function: { name: string; arguments: string } }[];
    assert.equal(calls[0]!.reply, first.content);
    assert.equal(calls[0]!.toolCalls.length, 1);
    assert.equal(calls[0]!.toolCalls[0]!.name, "search_posts");
    assert.equal(calls[0]!.toolCalls[0]!.malformed, false);
    assert.deepEqual(calls[0]!.toolCalls[0]!.arguments, JSON.parse(returned[0]!.function.arguments));
    // The next request carries the assistant message with its tool_calls as returned, then the result with its id.
    assert.deepEqual(calls[1]!.messages.slice(2), [
      { role: "assistant", content: first.content, tool_calls: returned },
      { role: "tool", content: calls[0]!.toolCalls[0]!.result, tool_call_id: returned[0]!.id },
    ]);
    // The third answer's arguments were cut off by max_tokens: not JSON, so malformed, with json.loads' error.
    const cut = calls[2]!.toolCalls[0]!;
    assert.equal(cut.malformed, true);
    assert.match(cut.result, /^"error: JSONDecodeError: Unterminated string starting at: line \d+ column \d+/);
    // llama-server then refuses the messages that carry that call back: a refused call, not retried, never an answer.
    assert.equal(transcript.outcome, "error");
    assert.equal(calls.at(-1)!.record.stopReason, "refused");
    assert.match(
      transcript.outcome === "error" ? transcript.error : "",
      /^server: HTTP 500: Failed to parse tool call/,
    );
    const record = answerRecord("tiny", "agent-forced", QUESTION, transcript);
    assert.equal(record.model_calls, exchanges.length);
    assert.equal(record.tool_calls, 3);
    assert.equal(record.malformed, 1);
    const usage = exchanges
      .filter((e) => e.status === 200)
      .map((e) => e.response.usage as { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } });
    assert.equal(
      record.tokens_read,
      usage.reduce((a, u) => a + u.prompt_tokens, 0),
    );
    // Each answered call's tokens evaluated are its prompt minus the cached prefix; the refused call's are unknown,
    // which makes the run's unknown (null, never 0).
    assert.deepEqual(
      calls.slice(0, usage.length).map((c) => c.record.tokensEvaluated),
      usage.map((u) => u.prompt_tokens - u.prompt_tokens_details.cached_tokens),
    );
    assert.equal(record.tokens_evaluated, null);
    // The log's reader takes the line, raw answers and tool_choice included.
    const line = answerFromLine(JSON.parse(JSON.stringify(record)));
    assert.ok("record" in line, JSON.stringify(line));
  });
});

test("recorded llama-server: the agent design asks for no tool_choice; the workflow sends no tools", async () => {
  const agent = recorded("agent");
  await withChat(replay(agent), async (runtime, server) => {
    const transcript = await runAgent({
      question: QUESTION.question,
      design: "agent",
      runtime,
      index: fakeIndex(),
      dialect: openaiChat,
    });
    assert.deepEqual(
      server.calls.map((c) => c.body),
      agent.map((e) => e.request),
    );
    assert.ok(server.calls.every((c) => c.body.tool_choice === undefined && Array.isArray(c.body.tools)));
    assert.equal(transcript.calls.length, agent.length);
  });
  const workflow = recorded("workflow");
  await withChat(replay(workflow), async (runtime, server) => {
    const transcript = await runDesign("workflow", {
      question: QUESTION.question,
      runtime,
      index: fakeIndex(),
      dialect: openaiChat,
    });
    assert.deepEqual(server.calls[0]!.body, workflow[0]!.request);
    assert.equal(server.calls[0]!.body.tools, undefined);
    // Without tools the server parses no calls: its text is the answer, tags and all.
    assert.equal(transcript.outcome, "answered");
    assert.equal(transcript.answer, message(workflow[0]!).content);
  });
});

/** A hand-built answer: the message's content and tool_calls, with usage. */
function answer(content: string | null, toolCalls?: unknown[]): FakeAnswer {
  return {
    json: {
      choices: [
        {
          index: 0,
          finish_reason: toolCalls ? "tool_calls" : "stop",
          message: { role: "assistant", content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 40 } },
    },
  };
}
const call = (id: string, name: string, args: string) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

test("hand-built: an unknown tool and bad arguments are malformed, as in the study; good ones run", async () => {
  const first = answer(null, [
    call("c1", "browse_web", '{"url": "x"}'),
    call("c2", "read_section", '{"post": "flashattention-explained"}'),
    call("c3", "search_posts", '{"query": "online softmax"} trailing'),
    call("c4", "search_posts", ' {"query": "online softmax"} '),
  ]);
  await withChat([first, answer("It rescales.\nSource: flashattention-explained")], async (runtime) => {
    const t = await runAgent({
      question: QUESTION.question,
      design: "agent",
      runtime,
      index: fakeIndex(),
      dialect: openaiChat,
    });
    const results = t.calls[0]!.toolCalls.map((c) => [c.name, c.malformed, c.malformed ? c.result : ""]);
    assert.deepEqual(results, [
      ["browse_web", true, "\"error: KeyError: 'browse_web'\""],
      ["read_section", true, "\"error: TypeError: read_section() missing 1 required positional argument: 'heading'\""],
      ["search_posts", true, '"error: JSONDecodeError: Extra data: line 1 column 29 (char 28)"'],
      ["search_posts", false, ""],
    ]);
    assert.equal(t.calls[0]!.reply, "", "a null content is an empty reply");
    assert.deepEqual(
      t.calls[1]!.messages.slice(3).map((m) => m.tool_call_id),
      ["c1", "c2", "c3", "c4"],
    );
    assert.equal(t.outcome, "answered");
    assert.equal(answerRecord("tiny", "agent", QUESTION, t).malformed, 3);
  });
});

test("the workflow sends no tools; only agent-forced sends tool_choice required", async () => {
  const done = answer("Done.\nSource: flashattention-explained");
  for (const design of ["workflow", "agent", "agent-search-first", "agent-forced"] as const) {
    await withChat([done], async (runtime, server) => {
      await runDesign(design, { question: QUESTION.question, runtime, index: fakeIndex(), dialect: openaiChat });
      const body = server.calls[0]!.body;
      assert.equal(body.tools === undefined, design === "workflow", design);
      assert.equal(body.tool_choice, design === "agent-forced" ? "required" : undefined, design);
      assert.equal(body.temperature, 0);
      assert.equal(body.top_k, 1);
      assert.equal(body.max_tokens, fixture.max_tokens);
    });
  }
});

test("chat mode: the dialect is openai-chat whatever the template; --tool-format is refused in one line", async () => {
  await withChat([], async (_runtime, server) => {
    const model = await openServerModel(options(server));
    assert.equal(modelDialect(model, "auto").dialect, openaiChat);
    assert.throws(
      () => modelDialect(model, "hermes"),
      (e: Error) => e instanceof UserError && /--tool-format hermes .* drop --tool-format/.test(e.message),
    );
    assert.equal(model.info.server?.mode, "chat");
    assert.throws(() => model.renderPrompt({ messages: [] }), /the server renders the prompts/);
  });
});

test("an answer without a message or usage is a call error that logs the answer", async () => {
  await withChat([{ json: { choices: [{ text: "completions, not chat" }] } }], async (runtime) => {
    const t = await runAgent({
      question: QUESTION.question,
      design: "agent",
      runtime,
      index: fakeIndex(),
      dialect: openaiChat,
    });
    assert.equal(t.outcome, "error");
    assert.match(t.outcome === "error" ? t.error : "", /^server: the answer has no choices\[0\]\.message/);
    assert.deepEqual(t.calls[0]!.record.response, { choices: [{ text: "completions, not chat" }] });
  });
});

test("audit compares a chat call's text and the calls returned beside it, not their random ids", async () => {
  const run = async (answers: readonly FakeAnswer[]) => {
    let transcript: Awaited<ReturnType<typeof runAgent>> | undefined;
    await withChat(answers, async (runtime) => {
      transcript = await runAgent({
        question: QUESTION.question,
        design: "agent",
        runtime,
        index: fakeIndex(),
        dialect: openaiChat,
      });
    });
    return transcript!;
  };
  const done = answer("Done.");
  const logged = await run([answer(null, [call("id1", "search_posts", '{"query": "a"}')]), done]);
  const sameCallOtherId = await run([answer(null, [call("id2", "search_posts", '{"query": "a"}')]), done]);
  const otherCall = await run([answer(null, [call("id1", "search_posts", '{"query": "b"}')]), done]);
  assert.equal(firstDifference(logged, sameCallOtherId), undefined);
  assert.equal(firstDifference(logged, otherCall)?.call, 1);
});
