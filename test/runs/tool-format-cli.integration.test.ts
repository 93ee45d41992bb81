// run on the tiny model (Qwen2.5's template): the tool-call format is detected and printed, --tool-format overrides
// it, the manifest records it, resuming with another is refused, and an engineered design refuses a non-hermes one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readManifest } from "../../src/runs/index.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tinyModelPath } from "../helpers/tiny-model.ts";

const BASE = ["--retriever", "bm25", "--max-new-tokens", "24", "--threads", "1", "--limit", "1"];
const tempDir = () => mkdtempSync(path.join(tmpdir(), "blogqa-format-"));

test("the format is read from the template, printed, recorded; --tool-format overrides; a resume may not switch", async () => {
  const model = await tinyModelPath();
  const auto = tempDir();
  const detected = runCli(["run", "--model", model, ...BASE, "--designs", "agent", "--out", auto]);
  assert.equal(detected.status, 0, detected.stderr);
  assert.match(detected.stderr, /tool-call format hermes \(the template writes <tool_call>\)/);
  assert.equal(readManifest(auto)!.models[0]?.toolFormat, "hermes");

  const llama = tempDir();
  const forced = runCli(
    ["run", "--model", model, ...BASE, "--designs", "agent-forced", "--tool-format", "llama3"].concat(["--out", llama]),
  );
  assert.equal(forced.status, 0, forced.stderr);
  assert.match(forced.stderr, /tool-call format llama3 \(--tool-format llama3\)/);
  assert.equal(readManifest(llama)!.models[0]?.toolFormat, "llama3");
  const line = JSON.parse(readFileSync(path.join(llama, "answers.jsonl"), "utf8").split("\n")[0]!);
  assert.ok(line.transcript.calls[0].reply.startsWith('{"name": "'), "the llama3 forced prefix");

  const switched = runCli(["run", "--model", model, ...BASE, "--designs", "agent-forced", "--out", llama]);
  assert.notEqual(switched.status, 0);
  assert.match(switched.stderr, /setting tool_format: "llama3" before, "auto" now/);
});

test("an engineered design refuses a format other than hermes before any run, in one line naming --tool-format", async () => {
  const model = await tinyModelPath();
  const out = tempDir();
  const designs = ["--designs", "agent,agent-validated", "--tool-format", "mistral"];
  const r = runCli(["run", "--model", model, ...BASE, ...designs, "--out", out]);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /agent-validated works on the hermes tool-call format only.*--tool-format hermes/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const answers = path.join(out, "answers.jsonl");
  assert.ok(!existsSync(answers) || readFileSync(answers, "utf8") === "", "the agent design did not run first");
});
