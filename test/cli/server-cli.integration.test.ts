// `run --server` from the command line against a fake OpenAI-compatible server: what the manifest records (never the
// key), resuming, and the one-line errors of a bad invocation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCliAsync } from "../helpers/run-cli.ts";
import { FIXTURE_CONTENT, FIXTURE_QUESTIONS } from "../helpers/tiny-run.ts";
import { startFakeServer } from "../helpers/fake-openai-server.ts";

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
    const first = await runCliAsync(args, { env });
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
    const again = await runCliAsync(args, { env });
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /all 4 runs already in/);
    assert.equal(server.calls.length, calls, "a resumed run asks the server nothing new");
    // audit reruns the log on the server the manifest names, without cache reuse.
    const audit = await runCliAsync(["audit", out, "--content", FIXTURE_CONTENT], { env });
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
    const noModel = await runCliAsync([...base, ...out]);
    assert.notEqual(noModel.status, 0);
    assert.match(noModel.stderr, /--server needs --model NAME/);
    assert.doesNotMatch(noModel.stderr, /\n\s+at /, "no stack trace");
    const noKey = await runCliAsync([...base, ...out, "--model", "tiny", "--api-key-env", "BLOGQA_UNSET_KEY_VAR"]);
    assert.notEqual(noKey.status, 0);
    assert.match(noKey.stderr, /--api-key-env BLOGQA_UNSET_KEY_VAR: that variable is not set/);
    const otherModel = await runCliAsync([...base, ...out, "--model", "qwen-72b"]);
    assert.notEqual(otherModel.status, 0);
    assert.match(otherModel.stderr, /serves tiny, not qwen-72b: check --model/);
  } finally {
    await server.kill();
  }
});

test("smoke and experiment refuse --server, naming run --server instead", async () => {
  for (const command of ["smoke", "experiment"]) {
    const result = await runCliAsync([command, "--server", "http://127.0.0.1:9/v1"]);
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /--server: .*run --server URL --model NAME/);
  }
});
