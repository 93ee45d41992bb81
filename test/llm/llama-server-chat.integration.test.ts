// --server-mode chat against a real llama-server built from node-llama-cpp's own llama.cpp: the study's four designs
// on the tiny model, with the server's logit biases (TOOL_CALL_BIASES) making the random weights write tool calls.
// Checks control flow, logging and counts, never answer quality.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { runCliAsync } from "../helpers/run-cli.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";
import { tinyEmbedderPath } from "../helpers/tiny-embedder.ts";
import { llamaServerMissing, startLlamaServer, TOOL_CALL_BIASES } from "../helpers/llama-server.ts";

const skip = llamaServerMissing();

interface ChatAnswer {
  readonly usage: { readonly prompt_tokens: number; readonly completion_tokens: number };
  readonly choices: readonly { readonly message: { readonly tool_calls?: readonly unknown[] } }[];
}

test("the study's designs run in chat mode on llama-server: calls, results, counts and raw answers logged", {
  skip,
  timeout: 600_000,
}, async (t) => {
  const out = mkdtempSync(path.join(tmpdir(), "blogqa-chat-"));
  const server = await startLlamaServer(await tinyModelPath(), { extraArgs: ["--alias", "tiny", ...TOOL_CALL_BIASES] });
  try {
    const run = await runCliAsync([
      ...["run", "--server", server.url, "--model", "tiny", "--server-mode", "chat", "--designs", "study"],
      ...["--limit", "4", "--max-new-tokens", "80", "--request-timeout", "60", "--cache-dir", testCacheDir],
      ...["--embedding-model", tinyEmbedderPath(), "--out", out],
    ]);
    // llama-server answers 500 to messages carrying a malformed call back: such runs fail, and the run exits 3.
    assert.ok(run.status === 0 || run.status === 3, `${run.stderr}\n${server.log().slice(-2000)}`);
    assert.match(run.stderr, /tool-call format openai-chat \(--server-mode chat/);
  } finally {
    await server.stop();
  }
  const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8"));
  assert.equal(manifest.settings.server_mode, "chat");
  assert.equal(manifest.models[0].toolFormat, "openai-chat");
  assert.equal(manifest.models[0].server.mode, "chat");
  assert.equal(manifest.models[0].server.requestParameters.temperature, 0);

  const records = readFileSync(path.join(out, "answers.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as AnswerRecord);
  assert.equal(records.length, 16);
  let executed = 0;
  let secondTurns = 0;
  for (const r of records) {
    const where = `${r.design} ${r.question_id}`;
    const calls = r.transcript.calls;
    // The workflow sends no tools; only agent-forced's first call asks for tool_choice "required".
    assert.ok(
      calls.every((c) => c.withTools === (r.design !== "workflow")),
      where,
    );
    for (const [i, c] of calls.entries())
      assert.equal(c.toolChoice, r.design === "agent-forced" && i === 0 ? "required" : undefined, where);
    // Every answered call's raw answer is logged; its usage is the call's tokens, its tool_calls the calls run.
    for (const c of calls) {
      if ("error" in c.record && c.record.response === undefined) continue; // an HTTP error or refusal: no answer
      const answer = c.record.response as ChatAnswer;
      assert.equal(c.record.tokensRead, answer.usage.prompt_tokens, where);
      assert.equal(c.record.tokensGenerated, answer.usage.completion_tokens, where);
      assert.equal(c.toolCalls.length, answer.choices[0]!.message.tool_calls?.length ?? 0, where);
      executed += c.toolCalls.filter((call) => !call.malformed).length;
    }
    // The counts are the transcript's.
    const toolCalls = calls.flatMap((c) => c.toolCalls);
    assert.equal(r.tool_calls, (r.design === "workflow" ? 1 : 0) + toolCalls.length, where);
    assert.equal(r.malformed, toolCalls.filter((c) => c.malformed).length, where);
    assert.equal(r.model_calls, calls.length, where);
    assert.equal(
      r.tokens_read,
      calls.reduce((a, c) => a + c.record.tokensRead, 0),
      where,
    );
    // A result goes back with the id of the call it answers.
    calls.slice(1).forEach((c, i) => {
      const previous = calls[i]!;
      const ids = previous.toolCalls.map((call) => (JSON.parse(call.raw) as { id: string }).id);
      const results = c.messages.slice(-ids.length).map((m) => m.tool_call_id);
      assert.deepEqual(results, ids, where);
      secondTurns++;
    });
  }
  t.diagnostic(`${executed} calls ran, ${secondTurns} calls after a tool result`);
  // The biases make the model call: the branch this test is for was taken.
  assert.ok(executed > 0 && secondTurns > 0, `${executed} calls ran, ${secondTurns} second turns`);

  // Every reader of a log takes it.
  const rescore = await runCliAsync(["rescore", out, "--json"]);
  assert.equal(rescore.status, 0, rescore.stderr);
});
