// The GPU check's CPU server is scripts/build-llama-server.sh's: one llama.cpp build serves both, so CI compiles it once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { repoRoot } from "../helpers/run-cli.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const temp = tempFolders("blogqa-shared-build");

function where(script: string, args: readonly string[], env: NodeJS.ProcessEnv) {
  const run = spawnSync(path.join(repoRoot, script), args, { env: { ...process.env, ...env }, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

test("build.sh --cpu --where names build-llama-server.sh's folder, wherever its cache is", () => {
  const cache = temp("cache");
  // The GPU check's own build folder no longer decides where its CPU server is.
  const env = { BLOGQA_LLAMA_SERVER_CACHE: cache, BLOGQA_GPU_CHECK_BUILD: temp("gpu-check") };
  const server = where("scripts/build-llama-server.sh", ["--where"], env);
  assert.equal(path.dirname(server), cache);
  assert.match(path.basename(server), /^[0-9a-f]{40}$/, "keyed by the bundle's llama.cpp commit");
  assert.equal(where("scripts/gpu-check/build.sh", ["--cpu", "--where"], env), server);
  // The CUDA build keeps its own folder.
  assert.notEqual(where("scripts/gpu-check/build.sh", ["--where"], env), server);
});

test("build.sh --cpu refuses the options only the CUDA build has, in one line", () => {
  const run = spawnSync(path.join(repoRoot, "scripts/gpu-check/build.sh"), ["--cpu", "--configure-only"], {
    encoding: "utf8",
  });
  assert.equal(run.status, 1);
  assert.equal(run.stderr.trim().split("\n").length, 1);
  assert.match(run.stderr, /--bundle and --configure-only are for the CUDA build/);
});
