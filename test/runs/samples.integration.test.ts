// --samples and --wordings on the tiny model: K lines per key with their own seeds, replies that differ, each
// wording its own runs, and audit reproducing them byte for byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readAnswerLog, readManifest } from "../../src/runs/index.ts";
import { runCli } from "../helpers/run-cli.ts";
import { testCacheDir } from "../helpers/tiny-model.ts";
import { tinyRun } from "../helpers/tiny-run.ts";
import { BUILTIN_WORDINGS } from "../../src/designs/index.ts";

test("--samples 3 logs three sampled runs per key, and audit reproduces every one byte for byte", {
  timeout: 300_000,
}, async () => {
  const { dir, summary } = await tinyRun({ questions: 2, parallel: 2, samples: 3 });
  assert.equal(summary.ran, 12);
  assert.equal(readManifest(dir)!.settings.samples, 3);
  const { records } = readAnswerLog(summary.answersFile);
  const byKey = new Map<string, (typeof records)[number][]>();
  for (const r of records)
    byKey.set(`${r.design} ${r.question_id}`, [...(byKey.get(`${r.design} ${r.question_id}`) ?? []), r]);
  assert.equal(byKey.size, 4);
  for (const [key, runs] of byKey) {
    assert.deepEqual(
      runs.map((r) => r.sample ?? 0),
      [0, 1, 2],
      key,
    );
    assert.equal(new Set(runs.map((r) => r.seed)).size, 3, `${key}: three seeds`);
    assert.ok(
      new Set(runs.map((r) => r.transcript.calls[0]!.reply)).size > 1,
      `${key}: the samples' first replies differ`,
    );
  }
  // The samples of one prompt run one after another on one sequence: the workflow's prompt is evaluated once.
  const workflow = byKey.get(`workflow ${records[0]!.question_id}`)!;
  assert.ok(workflow[1]!.tokens_evaluated! < workflow[0]!.tokens_evaluated!, "sample 1 reuses sample 0's prompt");

  const audit = runCli(["audit", "--out", dir, "--limit", "12", "--json", "--cache-dir", testCacheDir]);
  assert.equal(audit.status, 0, audit.stderr);
  const result = JSON.parse(audit.stdout);
  assert.deepEqual([result.checked, result.identical], [12, 12]);
});

test("two wordings double the tiny model's runs, each line names its wording, and audit reruns each under its own", {
  timeout: 300_000,
}, async () => {
  const wordings = BUILTIN_WORDINGS.slice(0, 2);
  const { dir, summary } = await tinyRun({ questions: 2, parallel: 1, wordings });
  assert.equal(summary.ran, 8);
  const { records } = readAnswerLog(summary.answersFile);
  assert.deepEqual(
    records.map((r) => `${r.design} ${r.wording ?? "-"} ${r.question_id}`.replace(/ \S+$/, "")),
    [
      "workflow -",
      "workflow -",
      `workflow ${wordings[1]!.id}`,
      `workflow ${wordings[1]!.id}`,
      "agent-forced -",
      "agent-forced -",
      `agent-forced ${wordings[1]!.id}`,
      `agent-forced ${wordings[1]!.id}`,
    ],
  );
  assert.ok(
    records.every((r) => r.seed === undefined && r.sample === undefined),
    "one greedy pass: no seed",
  );
  const audit = runCli(["audit", "--out", dir, "--limit", "8", "--json", "--cache-dir", testCacheDir]);
  assert.equal(audit.status, 0, audit.stderr);
  const result = JSON.parse(audit.stdout);
  assert.deepEqual([result.checked, result.identical], [8, 8]);
});
