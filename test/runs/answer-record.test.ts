// The log line of a run: one-post questions keep the study's gold fields; two-post questions log their gold set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { answerRecord } from "../../src/runs/answer-record.ts";
import { goldHeadingsOf, goldPostsOf } from "../../src/runs/answer-types.ts";
import type { ToolCallRecord, Transcript } from "../../src/designs/transcript.ts";

const search = (posts: string[]): ToolCallRecord => ({
  raw: "{}",
  name: "search_posts",
  arguments: {},
  result: "[]",
  malformed: false,
  shownPosts: posts,
});
const read = (post: string): ToolCallRecord => ({
  raw: "{}",
  name: "read_section",
  arguments: {},
  result: "{}",
  malformed: false,
  shownPosts: [post],
});

function transcript(toolCalls: ToolCallRecord[]): Transcript {
  const record = { tokensRead: 10, tokensEvaluated: 10, tokensGenerated: 5, stopReason: "eos" as const, seconds: 0.1 };
  return {
    calls: [{ messages: [], withTools: true, reply: "x", record, toolCalls }],
    answer: "x",
    outcome: "answered",
  };
}

test("a one-post question logs gold_post and gold_heading, as every earlier log did", () => {
  const r = answerRecord(
    "m",
    "agent",
    { id: "q1", question: "?", post: "a", heading: "A" },
    transcript([search(["b", "a"])]),
  );
  assert.equal("gold_posts" in r, false);
  assert.deepEqual(
    [(r as { gold_post: string }).gold_post, (r as { gold_heading: string }).gold_heading, r.found],
    ["a", "A", true],
  );
  assert.deepEqual(goldPostsOf(r), ["a"]);
});

test("a two-post question logs gold_posts and gold_headings; found wants a search to have returned both", () => {
  const question = { id: "t1", question: "?", posts: ["a", "b"], headings: ["A", "B"] } as const;
  const both = answerRecord("m", "agent", question, transcript([search(["a"]), search(["c", "b"])]));
  assert.equal("gold_post" in both, false);
  assert.deepEqual([goldPostsOf(both), goldHeadingsOf(both), both.found], [["a", "b"], ["A", "B"], true]);
  // a read shows a post (seen_posts) but is not a search: found stays false, found all (scoring) counts it
  const oneRead = answerRecord("m", "agent", question, transcript([search(["a"]), read("b")]));
  assert.deepEqual([oneRead.found, oneRead.seen_posts], [false, ["a", "b"]]);
});

test("wording, sample and seed are left off the line at their defaults and follow question_id otherwise", () => {
  const question = { id: "q1", question: "?", post: "a", heading: "A" };
  const keys = (variant: Parameters<typeof answerRecord>[4]) =>
    Object.keys(answerRecord("m", "agent", question, transcript([]), variant)).slice(3, 7);
  assert.deepEqual(keys(undefined), ["question_id", "question", "gold_post", "gold_heading"]);
  assert.deepEqual(keys({ wording: "default", sample: 0 }), ["question_id", "question", "gold_post", "gold_heading"]);
  assert.deepEqual(keys({ sample: 0, seed: 12 }), ["question_id", "seed", "question", "gold_post"]);
  const r = answerRecord("m", "agent", question, transcript([]), { wording: "terse", sample: 2, seed: 5 });
  assert.deepEqual([r.wording, r.sample, r.seed], ["terse", 2, 5]);
});

test("the engineering measures follow the checks the transcript says its run took, whatever the design's id", () => {
  const q = { id: "q1", question: "?", post: "a", heading: "A" };
  const refused = { ...search(["a"]), malformed: true, validation: "no-such-post" as const };
  const plain = answerRecord("m", "agent-validated", q, transcript([refused]));
  assert.deepEqual([plain.validation_errors, plain.repair_turns], [undefined, undefined], "no checks, no measures");
  const checked = answerRecord("m", "agent", q, {
    ...transcript([refused]),
    checks: ["validate-calls", "cite-check"],
  });
  assert.deepEqual(
    [checked.validation_errors, checked.repair_turns, checked.repair_tokens_read],
    [{ "no-such-post": 1 }, 0, 0],
  );
});
