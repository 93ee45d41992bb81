// `run --server` from the command line against a fake OpenAI-compatible server: what the manifest records (never the
// key), resuming, and the one-line errors of a bad invocation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";
import { FIXTURE_CONTENT, FIXTURE_QUESTIONS } from "../helpers/tiny-run.ts";
import { echoAnswer, startFakeServer, type CompletionCall, type FakeAnswer } from "../helpers/fake-openai-server.ts";

test("run --server logs the study, records the server (not the key) in the manifest, resumes, and audits", async () => {
  const server = await startFakeServer();
  try {
    const out = mkdtempSync(path.join(tmpdir(), "blogqa-server-cli-"));
    const args = [
      ...["run", "--server", server.url, "--model", "tiny", "--api-key-env", "BLOGQA_CLI_KEY"],
      ...["--retriever", "bm25", "--content", FIXTURE_CONTENT, "--questions", FIXTURE_QUESTIONS],
      ...["--limit", "2", "--designs", "workflow,agent", "--out", out],
    ];
    const env = { BLOGQA_CLI_KEY: "sk-cli-secret" };
    const first = await runCliInProcess(args, { env });
    assert.equal(first.status, 0, first.stderr);
    assert.equal(server.calls[0]!.headers.authorization, "Bearer sk-cli-secret");
    const manifestText = readFileSync(path.join(out, "manifest.json"), "utf8");
    assert.ok(!manifestText.includes("sk-cli-secret"));
    assert.ok(!first.stderr.includes("sk-cli-secret"));
    const manifest = JSON.parse(manifestText);
    assert.equal(manifest.settings.server, server.url);
    assert.equal(manifest.settings.server_mode, "completions");
    assert.equal(manifest.settings.api_key_env, "BLOGQA_CLI_KEY");
    const model = manifest.models[0];
    assert.equal(model.backend, "server");
    assert.equal(model.server.props.build_info, "b0000-fake");
    assert.deepEqual(model.server.models.data[0].id, "tiny");
    assert.equal(model.server.requestParameters.temperature, 0);
    const calls = server.calls.length;
    const again = await runCliInProcess(args, { env });
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /all 4 runs already in/);
    assert.equal(server.calls.length, calls, "a resumed run asks the server nothing new");
    // audit reruns the log on the server the manifest names, without cache reuse.
    const audit = await runCliInProcess(["audit", out, "--content", FIXTURE_CONTENT], { env });
    assert.equal(audit.status, 0, audit.stderr);
    assert.match(audit.stdout, /byte-identical transcripts: 4 of 4/);
    assert.equal(server.calls.at(-1)!.body.cache_prompt, false);
  } finally {
    await server.kill();
  }
});

test("run --server without --model, or with an unset key variable, is one line naming what to do", async () => {
  const server = await startFakeServer();
  try {
    const base = ["run", "--server", server.url, "--retriever", "bm25", "--content", FIXTURE_CONTENT];
    const out = ["--questions", FIXTURE_QUESTIONS, "--out", mkdtempSync(path.join(tmpdir(), "blogqa-server-cli-"))];
    const noModel = await runCliInProcess([...base, ...out]);
    assert.notEqual(noModel.status, 0);
    assert.match(noModel.stderr, /--server needs --model NAME/);
    assert.doesNotMatch(noModel.stderr, /\n\s+at /, "no stack trace");
    const noKey = await runCliInProcess([...base, ...out, "--model", "tiny", "--api-key-env", "BLOGQA_UNSET_KEY_VAR"]);
    assert.notEqual(noKey.status, 0);
    assert.match(noKey.stderr, /--api-key-env BLOGQA_UNSET_KEY_VAR: that variable is not set/);
    const otherModel = await runCliInProcess([...base, ...out, "--model", "qwen-72b"]);
    assert.notEqual(otherModel.status, 0);
    assert.match(otherModel.stderr, /serves tiny, not qwen-72b: check --model/);
  } finally {
    await server.kill();
  }
});

test("smoke and experiment refuse --server, naming run --server instead", async () => {
  for (const command of ["smoke", "experiment"]) {
    const result = await runCliInProcess([command, "--server", "http://127.0.0.1:9/v1"]);
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /--server: .*run --server URL --model NAME/);
  }
});

/** A chat answer: the first agent call in each run is a search (an id drawn at random, as llama-server draws it). */
function chatAnswer(call: CompletionCall): FakeAnswer {
  const messages = call.body.messages as { role: string }[];
  const calls =
    call.body.tools !== undefined && messages.at(-1)?.role === "user"
      ? [
          {
            id: Math.random().toString(36).slice(2),
            type: "function",
            function: { name: "search_posts", arguments: '{"query": "online softmax"}' },
          },
        ]
      : undefined;
  const content = calls ? null : `Reply to ${messages.length} messages.\nSource: flashattention-explained`;
  return {
    json: {
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content, tool_calls: calls } }],
      usage: { prompt_tokens: 10 * messages.length, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 } },
    },
  };
}

test("run --server-mode chat: the manifest says so, --tool-format and engineered designs are refused, audit reruns", async () => {
  const server = await startFakeServer(chatAnswer);
  try {
    const out = mkdtempSync(path.join(tmpdir(), "blogqa-server-cli-"));
    const args = [
      ...["run", "--server", server.url, "--model", "tiny", "--server-mode", "chat"],
      ...["--retriever", "bm25", "--content", FIXTURE_CONTENT, "--questions", FIXTURE_QUESTIONS, "--limit", "2"],
    ];
    const first = await runCliInProcess([...args, "--designs", "study", "--out", out]);
    assert.equal(first.status, 0, first.stderr);
    assert.ok(server.calls.every((c) => c.path === "/v1/chat/completions"));
    const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8"));
    assert.equal(manifest.settings.server_mode, "chat");
    assert.equal(manifest.models[0].toolFormat, "openai-chat");
    assert.equal(manifest.models[0].server.mode, "chat");
    // The page's provenance says the server rendered the prompts, not the empty string's template sha256.
    const report = await runCliInProcess(["report", out, "--content", FIXTURE_CONTENT]);
    assert.equal(report.status, 0, report.stderr);
    const page = readFileSync(path.join(out, "report.html"), "utf8");
    assert.match(page, /prompts rendered by the server \(chat mode\); served by (openai|llama-server) at http/);
    assert.doesNotMatch(page, /e3b0c44298fc1c149afbf4c8996fb924|node-llama-cpp ,/);
    // The tool ids differ on the rerun; the calls and the text do not.
    const audit = await runCliInProcess(["audit", out, "--content", FIXTURE_CONTENT]);
    assert.equal(audit.status, 0, audit.stderr);
    assert.match(audit.stdout, /byte-identical transcripts: 8 of 8/);
    for (const extra of [
      ["--tool-format", "hermes"],
      ["--designs", "agent-validated"],
    ]) {
      const refused = await runCliInProcess([...args, ...extra, "--out", mkdtempSync(path.join(tmpdir(), "blogqa-"))]);
      assert.notEqual(refused.status, 0);
      assert.match(
        refused.stderr,
        /--tool-format hermes reads calls|agent-validated validates or constrains .* --server-mode completions/,
      );
      assert.doesNotMatch(refused.stderr, /\n\s+at /, "no stack trace");
    }
    // A format a --models entry chose is refused naming that entry, not an option the command line never had.
    const list = path.join(mkdtempSync(path.join(tmpdir(), "blogqa-models-")), "models.json");
    writeFileSync(list, JSON.stringify([{ id: "served", model: "tiny", params_b: 1, tool_format: "hermes" }]));
    const listed = args.map((a) => (a === "--model" ? "--models" : a === "tiny" ? list : a));
    const refused = await runCliInProcess([...listed, "--out", mkdtempSync(path.join(tmpdir(), "blogqa-"))]);
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /"tool_format": "hermes" of served in --models reads calls .* drop that tool_format/);
    assert.doesNotMatch(refused.stderr, /--tool-format/);
    assert.doesNotMatch(refused.stderr, /\n\s+at /, "no stack trace");
  } finally {
    await server.kill();
  }
});

test("run --server whose every call fails exits 3 saying how many failed; the next run retries them", async () => {
  let fail = true;
  const server = await startFakeServer((call) =>
    fail ? { status: 401, json: { error: { message: "bad key" } } } : echoAnswer(call),
  );
  try {
    const out = mkdtempSync(path.join(tmpdir(), "blogqa-server-cli-"));
    const args = [
      ...["run", "--server", server.url, "--model", "tiny", "--retries", "0"],
      ...["--retriever", "bm25", "--content", FIXTURE_CONTENT, "--questions", FIXTURE_QUESTIONS],
      ...["--limit", "2", "--designs", "workflow,agent", "--out", out],
    ];
    const first = await runCliInProcess(args);
    assert.equal(first.status, 3, first.stderr);
    assert.match(first.stderr, /4 runs done \(4 failed: their model call failed\), 0 already logged/);
    assert.match(first.stderr, /blogqa: 4 of 4 runs failed \(their model call failed; outcome error in /);
    fail = false;
    const again = await runCliInProcess(args);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /4 runs done, 0 already logged/);
  } finally {
    await server.kill();
  }
});
