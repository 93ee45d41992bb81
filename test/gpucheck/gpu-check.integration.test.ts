// The GPU check's scripts on the CPU: build.sh's CPU server, the Python model writer, a tiny run's prompts replayed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { STUDY_DESIGNS } from "../../src/designs/index.ts";
import { loadModel } from "../../src/llm/index.ts";
import { llamaServerDir } from "../helpers/llama-server.ts";
import { repoRoot, runCli } from "../helpers/run-cli.ts";
import { tempFolders } from "../helpers/temp-folders.ts";
import { testCacheDir } from "../helpers/tiny-model.ts";
import { tinyRun } from "../helpers/tiny-run.ts";

const temp = tempFolders("blogqa-gpu-check");
const script = (name: string) => path.join(repoRoot, "scripts/gpu-check", name);

/** Where build.sh puts its CPU server: it says so itself, without building. */
const buildDir = spawnSync(script("build.sh"), ["--cpu", "--where"], { encoding: "utf8" }).stdout.trim();

/**
 * Why the test cannot run here, or undefined when it can. With BLOGQA_REQUIRE_GPU_CHECK=1 (CI, after building) a
 * missing build is an error, not a skip.
 */
function buildMissing(): string | undefined {
  if (fs.existsSync(path.join(buildDir, "llama-server")) && fs.existsSync(path.join(buildDir, ".complete")))
    return undefined;
  const why = `no CPU build in ${buildDir}: run scripts/gpu-check/build.sh --cpu (minutes) to test the GPU check here`;
  if (process.env.BLOGQA_REQUIRE_GPU_CHECK === "1") throw new Error(`BLOGQA_REQUIRE_GPU_CHECK=1 but ${why}`);
  return why;
}

interface Reply {
  readonly text?: string;
  readonly finish_reason?: string;
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly refused?: string;
}

interface RunEntry {
  readonly shape: string;
  readonly slots: number;
  readonly calls: number;
  readonly answered: number;
  readonly refused: number;
  readonly wall_s: number;
  readonly prompt_tokens: number;
  readonly prompt_tokens_evaluated: number;
  readonly generated_tokens: number;
  readonly prompt_tokens_per_s: number | null;
  readonly generated_tokens_per_s: number | null;
  readonly generated_tokens_per_s_all_slots: number | null;
  readonly replies: readonly Reply[];
}

/** run.sh on the tiny shape, 4 prompts at 1 and 2 slots, one thread, replies kept; its result file, parsed. */
function runCheck(
  prompts: string,
  models: string,
  server?: string,
): { runs: RunEntry[]; servers: Record<string, { build_info: string }> } {
  const out = temp("out");
  const args = ["--cpu", "--prompts", prompts, "--shapes", "tiny", "--slots", "1 2", "--limit", "4"];
  args.push("--threads", "1", "--replies", "--models", models, "--time-limit", "300");
  if (server !== undefined) args.push("--server", server);
  const run = spawnSync(script("run.sh"), args, {
    env: { ...process.env, OUT: out },
    encoding: "utf8",
    timeout: 400_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(fs.readFileSync(path.join(out, "gpu-check.json"), "utf8"));
}

test("run.sh replays a tiny run's exported prompts on build.sh's CPU server and records the counts", {
  skip: buildMissing(),
}, async (t) => {
  const { dir } = await tinyRun({ designs: STUDY_DESIGNS, questions: 1, parallel: 1, maxNewTokens: 24 });
  const prompts = path.join(temp("prompts"), "prompts.jsonl");
  const exported = runCli(["export-prompts", dir, "--out", prompts, "--cache-dir", testCacheDir]);
  fs.rmSync(dir, { recursive: true, force: true });
  assert.equal(exported.status, 0, exported.stderr);
  const sent = fs
    .readFileSync(prompts, "utf8")
    .trim()
    .split("\n")
    .slice(0, 4)
    .map((l) => JSON.parse(l) as { prompt: string; max_tokens: number });
  assert.equal(sent.length, 4);

  const models = temp("models");
  const result = runCheck(prompts, models);
  assert.match(result.servers.tiny!.build_info, /80fb11a|b\d+-[0-9a-f]{7}/);
  assert.deepEqual(
    result.runs.map((r) => [r.shape, r.slots, r.calls]),
    [
      ["tiny", 1, 4],
      ["tiny", 2, 4],
    ],
  );
  // The tokenizer the Python writer put in the file counts each prompt as the in-process runtime does.
  const local = await loadModel(path.join(models, "tiny-seed1.gguf"), {
    cacheDir: testCacheDir,
    gpu: false,
    vocabOnly: true,
  });
  const counts = sent.map((p) => local.countTokens(p.prompt));
  await local.dispose();
  for (const run of result.runs) {
    // The writer's model never writes a piece of a UTF-8 character, which llama-server would refuse.
    assert.deepEqual([run.answered, run.refused], [4, 0]);
    assert.equal(run.replies.length, 4);
    assert.ok(run.wall_s > 0);
    const answered = run.replies.flatMap((r, i) => (r.refused === undefined ? [{ r, i }] : []));
    assert.equal(answered.length, run.answered);
    for (const { r, i } of answered) {
      assert.equal(typeof r.text, "string");
      assert.equal(r.prompt_tokens, counts[i]);
      assert.ok(r.completion_tokens! >= 1 && r.completion_tokens! <= sent[i]!.max_tokens);
    }
    assert.equal(
      run.prompt_tokens,
      answered.reduce((a, { i }) => a + counts[i]!, 0),
    );
    // No prompt cache: every prompt token is evaluated.
    assert.equal(run.prompt_tokens_evaluated, run.prompt_tokens);
    assert.equal(
      run.generated_tokens,
      answered.reduce((a, { r }) => a + r.completion_tokens!, 0),
    );
    if (run.answered > 0) assert.ok(run.prompt_tokens_per_s! > 0 && run.generated_tokens_per_s! > 0);
  }

  // The replies themselves, against another server given with --server (a build of another configuration may part
  // from this one on a random model's greedy near-ties: the matches are reported, not required). The CPU server is
  // build-llama-server.sh's own now, so here that comparison has nothing to compare.
  const other = llamaServerDir();
  if (other === undefined || path.resolve(other) === path.resolve(buildDir))
    return t.diagnostic("the CPU server is scripts/build-llama-server.sh's build: replies not compared");
  const reference = runCheck(prompts, models, other);
  for (const [k, run] of result.runs.entries()) {
    const same = run.replies.filter(
      (r, i) => JSON.stringify(r) === JSON.stringify(reference.runs[k]!.replies[i]),
    ).length;
    t.diagnostic(`${run.slots} slot(s): ${same} of 4 replies equal to the shared-library server's`);
  }
});
