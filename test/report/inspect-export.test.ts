// export --format inspect: the run as Inspect logs, valid by the JSON Schema Inspect publishes for them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { readRunFolder, writeInspectLogs } from "../../src/report/index.ts";
import { FIXTURE_SLUGS, runWithManifest } from "../helpers/report-fixture.ts";
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
