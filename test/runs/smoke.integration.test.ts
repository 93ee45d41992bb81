// smoke --weights random inside npm test: the whole study offline on the random-weight tiny model and tiny embedder,
// checked for shape, not quality (trained-smoke.integration.test.ts checks the default, trained model's figures).
// Random weights never end a reply, so every call but the grammar-bound ones runs to the cap: at the study's 200 this
// file's smoke took over two minutes alone, mostly decoding gibberish; at 96 (room for the constrained first call,
// which needs 67) about half that. It still runs every design on every question, and checks that the cap is what
// ends a reply; the trained smoke runs at the default 200.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadCorpus } from "../../src/corpus/index.ts";
import { repoRoot, runCli } from "../helpers/run-cli.ts";
import { testCacheDir } from "../helpers/tiny-model.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { jsonSchemaCheck } from "../helpers/json-schema.ts";

const MAX_NEW_TOKENS = 96;

test("smoke --weights random runs the study's 4 designs and the 4 engineered ones x 30 questions with hybrid search and prints the tables", async () => {
  // The blog's section count as the indexer sees it, so editing a post does not break this test.
  const sections = (await loadCorpus(path.join(repoRoot, "content/posts"))).sections.length;
  const out = mkdtempSync(path.join(tmpdir(), "blogqa-smoke-"));
  const result = runCli([
    ...["smoke", "--weights", "random", "--out", out, "--cache-dir", testCacheDir, "--threads", "1"],
    ...["--max-new-tokens", String(MAX_NEW_TOKENS)],
  ]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`${sections} sections; 30 questions; tiny-seed1, greedy`));
  assert.match(result.stdout, /Strict rescore/);
  for (const file of [
    "tables.md",
    "study.csv",
    "strict.csv",
    "agents.csv",
    "key-facts.csv",
    "manifest.json",
    "report.html",
  ])
    assert.ok(existsSync(path.join(out, file)), file);
  // What the agents did: one row per agent design, the six that run the loop (the two workflows have none).
  assert.match(
    readFileSync(path.join(out, "tables.md"), "utf8"),
    /^What the agents did \(runs, counted from each run's transcript\)\n\n\| model \| design \| n \| hit the turn limit \|/m,
  );
  assert.equal(readFileSync(path.join(out, "agents.csv"), "utf8").trim().split("\n").length, 1 + 6);
  // The key-fact measures are computed on every design (random weights: their values are not checked).
  const keyFacts = readFileSync(path.join(out, "key-facts.csv"), "utf8").trim().split("\n");
  assert.equal(keyFacts.length, 1 + 8);
  assert.ok(
    keyFacts.slice(1).every((row) => row.split(",")[4] === "30"),
    keyFacts.join("\n"),
  );
  // The tiny model has random weights: tables.md and the page say so before any figure.
  assert.match(
    readFileSync(path.join(out, "tables.md"), "utf8"),
    /^> \*\*Random weights\.\*\* This run used blogqa's generated models with random weights \(blogqa random tiny qwen2, seed 1\)/,
  );
  assert.match(
    readFileSync(path.join(out, "report.html"), "utf8"),
    /<h1>[^<]*<\/h1>\n<p class="warning"><strong>Random weights\.<\/strong>/,
  );

  const records = readFileSync(path.join(out, "answers.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as AnswerRecord);
  assert.equal(records.length, 240);
  // What blogqa writes fits the JSON Schema files it publishes, checked by ajv rather than by blogqa's own reader.
  const lineFits = jsonSchemaCheck("answers-line.schema.json");
  for (const r of records) assert.equal(lineFits(r), undefined, `${r.design} ${r.question_id}`);
  const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8"));
  assert.equal(jsonSchemaCheck("manifest.schema.json")(manifest), undefined);
  assert.equal(new Set(records.map((r) => `${r.design} ${r.question_id}`)).size, 240);
  for (const r of records) {
    const calls = r.transcript.calls;
    assert.equal(r.model_calls, calls.length);
    assert.equal(
      r.tokens_read,
      calls.reduce((a, c) => a + c.record.tokensRead, 0),
    );
    assert.equal(r.last_context, calls.at(-1)!.record.tokensRead);
    assert.ok(
      calls.every((c) => c.record.tokensGenerated <= MAX_NEW_TOKENS),
      "the --max-new-tokens cap",
    );
    assert.notEqual(r.outcome, "error", r.error);
  }
  assert.equal(manifest.settings.max_new_tokens, MAX_NEW_TOKENS);
  const workflow = records.filter((r) => r.design === "workflow");
  // The cap, not the model, ends the workflow's gibberish: each of its answers is cut at exactly the cap.
  assert.ok(workflow.every((r) => r.transcript.calls[0]!.record.tokensGenerated === MAX_NEW_TOKENS));
  assert.ok(
    workflow.every((r) => r.transcript.retrieval?.hits.length === 3),
    "the workflow shows three hits",
  );
  assert.ok(
    workflow.every((r) => r.transcript.calls[0]!.messages[1]!.content.startsWith('Search results:\n[{"post": ')),
  );
  const forced = records.filter((r) => r.design === "agent-forced");
  assert.ok(
    forced.every((r) => r.transcript.calls[0]!.reply.startsWith("<tool_call>\n")),
    "the forced prefix starts every first reply",
  );
  const of = (design: string) => records.filter((r) => r.design === design);
  // The grammar makes every first call a real one, even on random weights.
  assert.ok(
    of("agent-constrained").every((r) => r.transcript.calls[0]!.toolCalls.length === 1),
    "one call in every constrained first reply",
  );
  for (const design of ["agent-cite-checked", "workflow-cite-checked"]) {
    assert.ok(
      of(design).every((r) => r.repair_turns === (r.first_answer === undefined ? 0 : 1)),
      `${design} logs its repairs`,
    );
  }
  assert.ok(of("agent-validated").every((r) => r.validation_errors !== undefined));
  assert.ok(
    records
      .filter((r) => r.design !== "workflow" && r.design !== "workflow-cite-checked")
      .every((r) => r.tool_block_tokens! > 0),
  );
});
