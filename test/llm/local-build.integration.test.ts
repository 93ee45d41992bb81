// Which llama.cpp binary blogqa loads: a local build (`npm run build:cpu`) when there is one, as it is, else
// node-llama-cpp's prebuilt; the manifest's record says which. Each binary runs in a child process, as a process keeps
// the one binary it loads. CI builds none, so there the local build's test skips and the prebuilt's runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import type { ModelInfo } from "../../src/llm/index.ts";
import { localCpuBuild, PREBUILT_ENV } from "../../scripts/bench/binaries.ts";
import { repoRoot } from "../helpers/run-cli.ts";

interface ChildRun {
  readonly binary: ModelInfo["binary"];
  readonly outputs: readonly { readonly text: string; readonly tokensGenerated: number }[];
}

/** The greedy calls of test/helpers/greedy-child.ts, in a process with `env` added to this one's. */
function greedyChild(env: Readonly<Record<string, string>>): ChildRun {
  const child = spawnSync(process.execPath, ["--import", "tsx", path.join(repoRoot, "test/helpers/greedy-child.ts")], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as ChildRun;
}

const localBuild = localCpuBuild();

test("the bench's environment loads node-llama-cpp's prebuilt binary, a local build or not, and it is recorded", () => {
  const run = greedyChild(PREBUILT_ENV);
  assert.equal(run.binary?.buildType, "prebuilt");
  assert.match(run.binary?.systemInfo ?? "", /CPU : /);
  assert.ok(run.outputs.length > 0 && run.outputs.every((o) => o.tokensGenerated > 0));
});

test("a local build is loaded as it is, without building, and recorded as localBuild", {
  skip: localBuild === undefined ? "no local build of llama.cpp here: `npm run build:cpu` makes one" : false,
}, () => {
  const run = greedyChild({});
  assert.equal(run.binary?.buildType, "localBuild");
  assert.match(run.binary?.systemInfo ?? "", /CPU : /);
  assert.ok(run.outputs.length > 0 && run.outputs.every((o) => o.tokensGenerated > 0));
});

test("without a local build, blogqa runs the prebuilt binary", {
  skip: localBuild !== undefined ? `a local build is here (${localBuild}): the test above covers it` : false,
}, () => {
  assert.equal(greedyChild({}).binary?.buildType, "prebuilt");
});
