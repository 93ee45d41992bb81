// export --format inspect: the run as Inspect logs, valid by the JSON Schema Inspect publishes for them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { readRunFolder, writeInspectLogs } from "../../src/report/index.ts";
import { FIXTURE_SLUGS, runWithManifest, runWithSamples } from "../helpers/report-fixture.ts";
import type { AnswerRecord } from "../../src/runs/index.ts";
import { readManifest, writeManifestFile } from "../../src/runs/manifest.ts";
import { DEFAULT_WORDING } from "../../src/designs/index.ts";
import { repoRoot } from "../helpers/run-cli.ts";

// The schema names no $schema: draft-07, Ajv's default; strict off for its Pydantic extras (such as "title" on $ref).
const schema = JSON.parse(readFileSync(path.join(repoRoot, "test/fixtures/inspect/log-schema.json"), "utf8"));
const validate = new Ajv({ strict: false, allErrors: false }).compile(schema);

test("each model's log validates against Inspect's schema, one sample per run with its scores and messages", async () => {
  const dir = await runWithManifest();
  const folder = await readRunFolder(dir, { onNotice: () => {} });
  const files = writeInspectLogs(folder);
  const models = [...new Set(folder.records.map((r) => r.model))];
  assert.equal(files.length, models.length);
  for (const [i, file] of files.entries()) {
    assert.equal(path.dirname(file), path.join(dir, "inspect"));
    const text = readFileSync(file, "utf8");
    assert.ok(validate(JSON.parse(text)), new Ajv().errorsText(validate.errors));
    const log = JSON.parse(text);
    const runs = folder.records.filter((r) => r.model === models[i]);
    assert.equal(log.eval.model, models[i]);
    assert.equal(log.samples.length, runs.length);
    assert.equal(log.status, "success");
    const first = log.samples[0];
    const run = runs[0]!;
    assert.equal(first.id, `${run.design}/${run.question_id}`);
    assert.equal(first.input, run.question);
    assert.equal(first.output.completion, run.answer);
    assert.deepEqual(Object.keys(first.scores), ["found", "cites_right_strict"]);
    assert.equal(first.scores.found.value, run.found ? 1 : 0);
    assert.equal(first.messages.at(-1).role, "assistant");
    assert.equal(first.messages[0].role, "system");
    const found = runs.filter((r) => r.outcome !== "error" && r.found).length;
    const scored = runs.filter((r) => r.outcome !== "error").length;
    assert.equal(log.results.scores[0].metrics.accuracy.value, found / scored);
    assert.deepEqual([...log.eval.metadata.corpus.posts].sort(), [...FIXTURE_SLUGS].sort());
  }
});

test("a sampled, worded run: one sample id per design, question and wording, its samples as epochs", async () => {
  const dir = await runWithSamples();
  const file = path.join(dir, "answers.jsonl");
  const logged = readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as AnswerRecord);
  // Sample 1 sampled with a seed; every run again under a second wording.
  const seeded = logged.map((r) => (r.sample === 1 ? { ...r, seed: 7 } : r));
  const worded = seeded.map((r) => ({ ...r, wording: "terse" }));
  writeFileSync(file, [...seeded, ...worded].map((r) => `${JSON.stringify(r)}\n`).join(""));
  const manifest = readManifest(dir)!;
  const texts = [DEFAULT_WORDING, { ...DEFAULT_WORDING, id: "terse" }];
  writeManifestFile(dir, { ...manifest, wordings: { sha256: "0".repeat(64), texts } });
  const folder = await readRunFolder(dir, { onNotice: () => {} });
  const files = writeInspectLogs(folder);
  assert.ok(files.length > 0);
  for (const written of files) {
    const text = readFileSync(written, "utf8");
    assert.ok(validate(JSON.parse(text)), new Ajv().errorsText(validate.errors));
    const log = JSON.parse(text);
    const runs = folder.records.filter((r) => r.model === log.eval.model);
    assert.equal(log.samples.length, runs.length);
    // Every run is its own (id, epoch): before, all 12 of a model's runs shared 6 pairs.
    const pairs = new Set(log.samples.map((s: { id: string; epoch: number }) => `${s.id} ${s.epoch}`));
    assert.equal(pairs.size, runs.length);
    assert.deepEqual([...new Set(log.samples.map((s: { epoch: number }) => s.epoch))].sort(), [1, 2]);
    assert.equal(log.eval.config.epochs, 2);
    const ids = new Set(log.samples.map((s: { id: string }) => s.id));
    assert.equal(log.eval.dataset.samples, ids.size);
    assert.deepEqual([...ids].sort(), [...log.eval.dataset.sample_ids].sort());
    const terse = log.samples.find((s: { metadata: { wording: string } }) => s.metadata.wording === "terse");
    assert.equal(terse.id, `${terse.metadata.design}/${terse.metadata.question_id}/terse`);
    const second = log.samples.find((s: { epoch: number }) => s.epoch === 2);
    assert.equal(second.metadata.sample, 1);
    assert.equal(second.metadata.seed, 7);
  }
});
