// The run command on the real tiny model: killed mid-way and resumed, or run 4 at a time, it logs the same answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readManifest } from "../../src/runs/index.ts";
import { repoRoot, runCli } from "../helpers/run-cli.ts";
import { tinyModelPath } from "../helpers/tiny-model.ts";

const BASE = ["--retriever", "bm25", "--max-new-tokens", "24", "--threads", "1"];
const SLICE = [...BASE, "--limit", "4"];

/** The log's lines without the fields that measure time or depend on what the KV cache held. */
function stableLog(dir: string): string[] {
  const volatile = new Set(["seconds", "tokens_evaluated", "tokensEvaluated"]);
  return readFileSync(path.join(dir, "answers.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.stringify(JSON.parse(line), (key, value) => (volatile.has(key) ? null : value)));
}

const tempDir = () => mkdtempSync(path.join(tmpdir(), "blogqa-run-"));

test("run --parallel 4, and a run killed mid-way then resumed, log what one uninterrupted run logs", async () => {
  const model = await tinyModelPath();
  const whole = tempDir();
  const first = runCli(["run", "--model", model, ...SLICE, "--out", whole]);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(stableLog(whole).length, 16);
  assert.match(first.stdout, /4 questions; tiny-seed1, greedy/);

  const parallel = tempDir();
  const four = runCli(["run", "--model", model, ...SLICE, "--parallel", "4", "--out", parallel]);
  assert.equal(four.status, 0, four.stderr);
  assert.deepEqual(stableLog(parallel), stableLog(whole));

  // Kill the process once a few runs are logged, as a user's Ctrl-C or a crash would.
  const broken = tempDir();
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, "bin/blogqa.cjs"), "run", "--model", model, ...SLICE, "--out", broken],
    {
      cwd: repoRoot,
      stdio: "ignore",
    },
  );
  const answers = path.join(broken, "answers.jsonl");
  while (!(existsSync(answers) && readFileSync(answers, "utf8").split("\n").length > 5)) {
    if (child.exitCode !== null) assert.fail("the run finished before it could be killed");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("exit", resolve));
  const logged = stableLog(broken).length;
  assert.ok(logged >= 5 && logged < 16, `killed after ${logged} runs`);

  const resumed = runCli(["run", "--model", model, ...SLICE, "--out", broken]);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`${16 - logged} runs to do \\(${logged} already done\\)`));
  assert.deepEqual(stableLog(broken), stableLog(whole));
});

test("rescore prints the strict table of a logged run, and --json its tables with their rows", async () => {
  const model = await tinyModelPath();
  const dir = tempDir();
  assert.equal(
    runCli(["run", "--model", model, ...BASE, "--limit", "1", "--designs", "workflow,agent", "--out", dir]).status,
    0,
  );
  const json = runCli(["rescore", path.join(dir, "answers.jsonl"), "--json"]);
  assert.equal(json.status, 0, json.stderr);
  type Row = {
    design: string;
    n: number;
    source_none: number;
    source_one_real: number;
    source_several: number;
    source_invented: number;
  };
  const rows = (JSON.parse(json.stdout) as { tables: { strict: { rows: { "strict.csv": Row[] } } } }).tables.strict
    .rows["strict.csv"];
  assert.deepEqual(
    rows.map((r) => [r.design, r.n]),
    [
      ["workflow", 1],
      ["agent", 1],
    ],
  );
  for (const r of rows) assert.equal(r.source_none + r.source_one_real + r.source_several + r.source_invented, r.n);
  const table = runCli(["rescore", path.join(dir, "answers.jsonl")]);
  assert.match(table.stdout, /\| tiny-seed1 \| agent loop \|/);
  const missing = runCli(["rescore", path.join(dir, "nope.jsonl")]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /nope\.jsonl: no such file/);
});

test("bad flags fail clearly before any model loads", () => {
  const result = runCli([
    "run",
    "--model",
    "x.gguf",
    "--designs",
    "workflow,agentic",
    "--retriever",
    "bm25",
    "--out",
    tempDir(),
  ]);
  assert.equal(result.status, 2, "a usage error");
  assert.match(
    result.stderr,
    /unknown design agentic; choose from .*\bworkflow, agent, agent-search-first, agent-forced\b/,
  );
  assert.doesNotMatch(result.stderr, /\n\s+at /, "one line, no stack trace");
});

test("run --fresh starts over once the model loads: the old answers, tables, manifest and report all go", async () => {
  const model = await tinyModelPath();
  const dir = tempDir();
  const one = (tokens: string) => [
    "run",
    "--model",
    model,
    "--retriever",
    "bm25",
    "--threads",
    "1",
    "--max-new-tokens",
    tokens,
    "--limit",
    "1",
    "--designs",
    "workflow",
    "--out",
    dir,
  ];
  assert.equal(runCli(one("24")).status, 0);
  writeFileSync(path.join(dir, "report.html"), "an old report");
  const refused = runCli(one("12"));
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /setting max_new_tokens: 24 before, 12 now/);

  const fresh = runCli([...one("12"), "--fresh"]);
  assert.equal(fresh.status, 0, fresh.stderr);
  assert.equal(existsSync(path.join(dir, "report.html")), false, "the old report went with the answers");
  assert.equal(stableLog(dir).length, 1);
  const manifest = readManifest(dir)!;
  assert.equal(manifest.sessions.length, 1);
  assert.equal(manifest.settings.max_new_tokens, 12);
  assert.equal(manifest.settings.threads, 1);
  assert.equal(manifest.models[0]!.threads, 1, "the threads the model really used");
});
