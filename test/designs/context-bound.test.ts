// The context bound's arithmetic on hand-built token counts: the worst reply's knapsack and the turns' sum.
import { test } from "node:test";
import assert from "node:assert/strict";
import { agentBound, bestReply, workflowBound, type CallCandidate } from "../../scripts/context-bound/bound.ts";

const cheap: CallCandidate = { label: "cheap", callTokens: 3, resultTokens: 30 };
const dear: CallCandidate = { label: "dear", callTokens: 5, resultTokens: 45 };

test("the worst reply is the exact knapsack, not the best ratio repeated", () => {
  // Ratio alone would take two cheap calls (60); 3 + 5 fills the budget and brings 75.
  assert.deepEqual(bestReply([cheap, dear], 8), {
    resultTokens: 75,
    callTokens: 8,
    calls: [
      { label: "cheap", count: 1 },
      { label: "dear", count: 1 },
    ],
  });
  // The same call may come back many times; a budget it does not divide leaves tokens unused.
  assert.deepEqual(bestReply([cheap], 10), { resultTokens: 90, callTokens: 9, calls: [{ label: "cheap", count: 3 }] });
});

test("a budget no call fits brings nothing back", () => {
  assert.deepEqual(bestReply([dear], 4), { resultTokens: 0, callTokens: 0, calls: [] });
  assert.deepEqual(bestReply([], 200), { resultTokens: 0, callTokens: 0, calls: [] });
});

test("a call of no tokens is refused: the knapsack would be unbounded", () => {
  assert.throws(() => bestReply([{ label: "free", callTokens: 0, resultTokens: 1 }], 10), /at least one token/);
});

test("an agent's last prompt adds every turn but the last: a full reply, the frame, the worst results", () => {
  const parts = { firstPrompt: 100, turnFrame: 7, prefixTokens: 0, candidates: [cheap] };
  // 3 turns: 2 of them grow the prompt by 10 reply + 7 frame + 3 calls x 30 = 107 each.
  const bound = agentBound(parts, { maxTurns: 3, maxNewTokens: 10 });
  assert.equal(bound.lastPrompt, 100 + 2 * 107);
  assert.equal(bound.contextNeeded, 314 + 10);
  assert.equal(bound.replies.length, 2);
});

test("the forced prefix widens the first reply's budget only: its tokens are in the first prompt already", () => {
  const parts = { firstPrompt: 100, turnFrame: 7, prefixTokens: 2, candidates: [cheap] };
  const bound = agentBound(parts, { maxTurns: 3, maxNewTokens: 10 });
  // Turn 1 fits 12 call tokens: 4 calls (120); turn 2 fits 3 (90). The reply counts its 10 generated tokens.
  assert.deepEqual(
    bound.replies.map((r) => r.resultTokens),
    [120, 90],
  );
  assert.equal(bound.lastPrompt, 100 + (10 + 7 + 120) + (10 + 7 + 90));
});

test("one turn: the first prompt is the last", () => {
  const bound = agentBound(
    { firstPrompt: 100, turnFrame: 7, prefixTokens: 0, candidates: [cheap] },
    { maxTurns: 1, maxNewTokens: 10 },
  );
  assert.deepEqual(bound, { lastPrompt: 100, contextNeeded: 110, replies: [] });
});

test("the workflow's one prompt needs room for one reply", () => {
  assert.deepEqual(workflowBound(653, { maxNewTokens: 200 }), { lastPrompt: 653, contextNeeded: 853, replies: [] });
});
