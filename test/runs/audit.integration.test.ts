// audit on a real tiny-model run: reruns one at a time without cache reuse, and reports where a transcript parts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readManifest } from "../../src/runs/index.ts";
import { firstDifference } from "../../src/runs/audit.ts";
import type { Transcript } from "../../src/designs/index.ts";
import { runCli } from "../helpers/run-cli.ts";
import { testCacheDir } from "../helpers/tiny-model.ts";
import { tinyRun } from "../helpers/tiny-run.ts";

const call = (reply: string) => ({
  messages: [],
  withTools: false,
  reply,
  record: { tokensRead: 1, tokensEvaluated: 1, tokensGenerated: 1, stopReason: "eos" as const, seconds: 0 },
  toolCalls: [],
});
const transcript = (...replies: string[]): Transcript => ({
  calls: replies.map(call),
  answer: replies.at(-1) ?? "",
  outcome: "answered",
});

test("firstDifference finds the first call whose reply differs, and where", () => {
  assert.equal(firstDifference(transcript("a", "b"), transcript("a", "b")), undefined);
  assert.deepEqual(firstDifference(transcript("a", "hello"), transcript("a", "help")), {
    call: 2,
    logged: "hello",
    rerun: "help",
    offset: 3,
  });
  assert.deepEqual(firstDifference(transcript("a"), transcript("a", "more")), {
    call: 2,
    logged: undefined,
    rerun: "more",
    offset: 0,
  });
});

test("audit reruns a tiny-model run byte for byte, and names a run whose log was changed", {
  timeout: 300_000,
}, async () => {
  const { dir, model } = await tinyRun({ questions: 2, parallel: 2 });
  const manifest = readManifest(dir)!;
  assert.equal(manifest.models[0]!.architecture, "qwen2");
  assert.equal(manifest.settings.parallel, 2);

  const clean = runCli(["audit", "--out", dir, "--limit", "3", "--cache-dir", testCacheDir]);
  assert.equal(clean.status, 0, clean.stderr);
  assert.match(
    clean.stdout,
    /3 logged runs rerun one at a time without cache reuse \(the run used parallel 2, cache reuse on\)/,
  );
  assert.match(clean.stdout, /byte-identical transcripts: 3 of 3/);

  // Change the logged reply of the second run (workflow f2): the audit must name it and call 1.
  const file = path.join(dir, "answers.jsonl");
  const lines = readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  const original: string = lines[1].transcript.calls[0].reply;
  lines[1].transcript.calls[0].reply = `${original.slice(0, 5)}\u0000tampered`;
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  const json = runCli([
    "audit",
    "--out",
    dir,
    "--model",
    path.basename(model, ".gguf"),
    "--limit",
    "2",
    "--json",
    "--cache-dir",
    testCacheDir,
  ]);
  assert.equal(json.status, 0, json.stderr);
  const result = JSON.parse(json.stdout);
  assert.equal(result.model, model);
  assert.equal(result.checked, 2);
  assert.equal(result.identical, 1);
  assert.equal(result.runs[0].difference, undefined);
  assert.deepEqual(
    {
      ...result.runs[1],
      difference: {
        call: result.runs[1].difference.call,
        offset: result.runs[1].difference.offset,
        rerun: result.runs[1].difference.rerun,
      },
    },
    {
      design: lines[1].design,
      question_id: lines[1].question_id,
      difference: { call: 1, offset: Math.min(5, original.length), rerun: original },
    },
  );

  const wrongModel = runCli(["audit", "--out", dir, "--model", "qwen2.5-3b", "--cache-dir", testCacheDir]);
  assert.equal(wrongModel.status, 1);
  assert.match(wrongModel.stderr, /no runs of model "qwen2.5-3b"/);
});
