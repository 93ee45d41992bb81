// The trained agent model through a real llama-server (scripts/build-llama-server.sh): in completions mode every run,
// tool results read back over several turns included, matches the in-process runtime; in chat mode llama-server's
// own Hermes parser turns the model's calls into tool_calls that the loop runs and answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { readAnswerLog } from "../../src/runs/index.ts";
import { runCliAsync } from "../helpers/run-cli.ts";
import { testCacheDir, trainedModelPath } from "../helpers/tiny-model.ts";
import { llamaServerMissing, startLlamaServer, type RunningServer } from "../helpers/llama-server.ts";

const skip = llamaServerMissing();
const COMMON = ["--retriever", "bm25", "--designs", "study", "--limit", "10", "--cache-dir", testCacheDir];

async function withTrainedServer<T>(body: (server: RunningServer) => Promise<T>): Promise<T> {
  const server = await startLlamaServer(await trainedModelPath(), { extraArgs: ["--alias", "trained"] });
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

const readLog = (dir: string): readonly AnswerRecord[] => readAnswerLog(path.join(dir, "answers.jsonl")).records;

/** What both backends must agree on: every call's prompt tokens, reply and tool results, and the run's scores. */
function behaviour(r: AnswerRecord): string {
  return JSON.stringify({
    answer: r.answer,
    found: r.found,
    calls: r.transcript.calls.map((c) => ({
      reply: c.reply,
      read: c.record.tokensRead,
      tools: c.toolCalls.map((t) => [t.name, t.result]),
    })),
  });
}

test("the trained model through llama-server's /v1/completions: every run as in process, tool results included", {
  skip,
  timeout: 900_000,
}, async () => {
  const local = mkdtempSync(path.join(tmpdir(), "blogqa-trained-local-"));
  const served = mkdtempSync(path.join(tmpdir(), "blogqa-trained-served-"));
  await withTrainedServer(async (server) => {
    const [smoke, run] = await Promise.all([
      runCliAsync(["smoke", "--weights", "trained", "--out", local, "--threads", "1", ...COMMON]),
      runCliAsync(["run", "--server", server.url, "--model", "trained", "--out", served, ...COMMON]),
    ]);
    assert.equal(smoke.status, 0, smoke.stderr);
    assert.equal(run.status, 0, `${run.stderr}\n${server.log().slice(-2000)}`);
  });
  const byKey = new Map(readLog(served).map((r) => [`${r.design} ${r.question_id}`, r]));
  const records = readLog(local);
  assert.equal(records.length, 40);
  for (const r of records) {
    const s = byKey.get(`${r.design} ${r.question_id}`);
    assert.ok(s, `${r.design} ${r.question_id} missing from the server's run`);
    assert.equal(behaviour(s), behaviour(r), `${r.design} ${r.question_id}`);
  }
  // Not a trivial agreement: agents searched, read the results in a later turn, and cited.
  const multiTurn = records.filter((r) => r.transcript.calls.length >= 2 && r.tool_calls > 0);
  assert.ok(multiTurn.length >= 5, `${multiTurn.length} runs with a tool result read back`);
  const cited = records.filter((r) => "gold_post" in r && r.answer.trimEnd().endsWith(`Source: ${r.gold_post}`));
  assert.ok(cited.length >= 5, `${cited.length} runs cite the right post`);
});

test("the trained model in chat mode: llama-server's Hermes parser returns its calls, the loop runs them", {
  skip,
  timeout: 900_000,
}, async () => {
  const out = mkdtempSync(path.join(tmpdir(), "blogqa-trained-chat-"));
  await withTrainedServer(async (server) => {
    const run = await runCliAsync([
      ...["run", "--server", server.url, "--model", "trained", "--server-mode", "chat", "--out", out],
      ...COMMON,
    ]);
    // llama-server answers 500 to messages that carry a malformed call back (docs/servers.md), so a run whose
    // model cut a call short ends with that call error on its next turn, and the command says runs failed.
    assert.ok(run.status === 0 || /runs? failed/.test(run.stderr), `${run.stderr}\n${server.log().slice(-2000)}`);
  });
  const records = readLog(out);
  for (const r of records.filter((r) => r.outcome === "error")) {
    const calls = r.transcript.calls;
    const last = calls.at(-1)!.record;
    assert.match("error" in last ? last.error : "", /Failed to parse tool call arguments as JSON/, r.question_id);
    // counted apart, and never run again by a resume: the same messages would fail again
    assert.equal(last.stopReason, "refused", r.question_id);
    const before = calls.at(-2)?.toolCalls ?? [];
    assert.ok(
      before.some((t) => t.result.includes("error: JSONDecodeError")),
      `${r.design} ${r.question_id}: refused without a malformed call before it`,
    );
  }
  const forced = records.filter((r) => r.design === "agent-forced");
  // tool_choice "required" does not force a call at this llama-server (its grammar lets text come first:
  // docs/servers.md), so some forced runs answer at once. Where the first reply came back as a server tool call,
  // the loop ran it and sent its result back in the next request.
  const served = forced.filter((r) => {
    const answer = r.transcript.calls[0]!.record.response as { choices: { message: { tool_calls?: unknown[] } }[] };
    return (answer.choices[0]!.message.tool_calls?.length ?? 0) >= 1;
  });
  assert.ok(served.length >= 5, `${served.length} of ${forced.length} forced runs got a server tool call first`);
  for (const r of served) {
    assert.equal(r.transcript.calls[0]!.toolCalls[0]!.name, "search_posts", r.question_id);
    assert.ok(r.transcript.calls.length >= 2, r.question_id);
    assert.equal(r.transcript.calls[1]!.messages.at(-1)!.role, "tool", r.question_id);
  }
  assert.ok(forced.filter((r) => r.found).length >= 3, "forced chat-mode agents find the post");
});
