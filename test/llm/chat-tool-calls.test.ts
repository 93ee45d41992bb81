// A chat-mode server's tool_calls, whatever their shape, become calls the loop runs and the answer log reads back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseChatAnswer } from "../../src/llm/server-chat-runtime.ts";
import type { ChatRuntime, Generation, MessageToolCall } from "../../src/llm/types.ts";
import { runAgent } from "../../src/designs/agent-loop.ts";
import { chatMessageSchema } from "../../src/designs/llm-record-schemas.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import { answerFromLine } from "../../src/runs/answer-line.ts";
import { openaiChat } from "../../src/toolcalls/index.ts";
import { fakeIndex, SCRIPTED_QUESTION } from "../helpers/scripted-runtime.ts";

const ARGS = '{"query": "x"}';
const FN = { name: "search_posts", arguments: ARGS };
/** Entries no server should send, and a few it may: 25 shapes of one tool_calls entry. */
const SHAPES: readonly unknown[] = [
  { id: "c1", type: "function", function: FN },
  { type: "function", function: FN },
  { id: 7, type: "function", function: FN },
  { id: null, type: "function", function: FN },
  { id: { x: 1 }, type: "function", function: FN },
  { id: "c1", function: FN },
  { id: "c1", type: "tool", function: FN },
  { id: "c1", type: "function" },
  { id: "c1", type: "function", function: null },
  { id: "c1", type: "function", function: "search_posts" },
  { id: "c1", type: "function", function: 3 },
  { id: "c1", type: "function", function: [FN] },
  { id: "c1", type: "function", function: { arguments: ARGS } },
  { id: "c1", type: "function", function: { name: 5, arguments: ARGS } },
  { id: "c1", type: "function", function: { name: null, arguments: ARGS } },
  { id: "c1", type: "function", function: { name: "", arguments: ARGS } },
  { id: "c1", type: "function", function: { name: "search_posts" } },
  { id: "c1", type: "function", function: { name: "search_posts", arguments: 12 } },
  { id: "c1", type: "function", function: { name: "search_posts", arguments: { query: "x" } } },
  { id: "c1", type: "function", function: { name: "search_posts", arguments: "{not json" } },
  { id: 2, function: { name: 2 } },
  {},
  3,
  "search_posts",
  null,
];

const wellFormed = (entry: unknown) =>
  typeof entry === "object" &&
  entry !== null &&
  typeof (entry as { function?: { name?: unknown } }).function?.name === "string" &&
  !Array.isArray((entry as { function?: unknown }).function);

test("each of 25 shapes of a tool_calls entry is a call the log's message schema accepts", () => {
  assert.equal(SHAPES.length, 25);
  for (const entry of SHAPES) {
    const answer = parseChatAnswer(
      {
        choices: [{ message: { content: null, tool_calls: [entry] } }],
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      },
      4096,
    );
    assert.ok(typeof answer !== "string", `${JSON.stringify(entry)}: ${String(answer)}`);
    const [call] = answer.toolCalls!;
    const message = chatMessageSchema.safeParse({ role: "assistant", content: "", tool_calls: [call] });
    assert.ok(message.success, `${JSON.stringify(entry)}: ${JSON.stringify(message.error?.issues[0])}`);
    if (!wellFormed(entry))
      // a call named "" that the loop cannot bind, its raw entry kept as text
      assert.deepEqual(call!.function, { name: "", arguments: JSON.stringify(entry) }, JSON.stringify(entry));
  }
});

test("every shape runs through the chat mode's loop to an answer line the reader accepts", async () => {
  for (const entry of SHAPES) {
    const answer = parseChatAnswer(
      {
        choices: [{ message: { content: "", tool_calls: [entry] } }],
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      },
      4096,
    );
    assert.ok(typeof answer !== "string");
    let n = 0;
    const runtime: ChatRuntime = {
      generate: async (): Promise<Generation> => {
        const record = {
          tokensRead: 3,
          tokensEvaluated: 3,
          tokensGenerated: 2,
          stopReason: "eos" as const,
          seconds: 0,
        };
        const calls: readonly MessageToolCall[] | undefined = n++ === 0 ? answer.toolCalls : undefined;
        return {
          prompt: "p",
          text: n === 1 ? "" : "Done. Source: none",
          record,
          ...(calls ? { toolCalls: calls } : {}),
        };
      },
    };
    const transcript = await runAgent({
      question: SCRIPTED_QUESTION.question,
      design: "agent",
      runtime,
      index: fakeIndex(),
      dialect: openaiChat,
    });
    const line = JSON.parse(JSON.stringify(answerRecord("m", "agent", SCRIPTED_QUESTION, transcript)));
    const read = answerFromLine(line);
    assert.ok("record" in read, `${JSON.stringify(entry)}: ${JSON.stringify("mismatch" in read && read.mismatch)}`);
    if (!wellFormed(entry)) assert.equal(read.record.malformed, 1, JSON.stringify(entry));
  }
});
