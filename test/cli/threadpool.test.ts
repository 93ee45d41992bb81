import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { threadpoolSize } from "../../bin/threadpool.cjs";
import { repoRoot } from "../helpers/run-cli.ts";

test("one pool thread unless --parallel K runs K separate contexts", () => {
  assert.equal(threadpoolSize(["run", "--model", "m.gguf"]), 1);
  assert.equal(threadpoolSize(["run", "--parallel", "1"]), 1);
  assert.equal(threadpoolSize(["run", "--parallel", "8"]), 9);
  assert.equal(threadpoolSize(["run", "--parallel=4"]), 5);
  assert.equal(threadpoolSize(["run", "--parallel", "8", "--shared-context"]), 1);
  assert.equal(threadpoolSize(["run", "--shared-context=true", "--parallel", "8"]), 1);
  assert.equal(threadpoolSize(["run", "--parallel", "8", "--shared-context", "--no-shared-context"]), 9);
  assert.equal(threadpoolSize(["run", "--parallel", "8", "--shared-context=false"]), 9);
  assert.equal(threadpoolSize(["run", "--parallel", "2", "--parallel", "3"]), 4, "the last one counts");
  assert.equal(threadpoolSize(["run", "--parallel", "x"]), 1, "yargs refuses it; the pool stays small");
  assert.equal(threadpoolSize(["run", "--", "--parallel", "8"]), 1, "after -- nothing is a flag");
});

function poolOrder(args: readonly string[], env: NodeJS.ProcessEnv = {}): string {
  const { UV_THREADPOOL_SIZE: _, ...inherited } = process.env;
  const result = spawnSync(
    process.execPath,
    [
      "--require",
      path.join(repoRoot, "bin/preload-threadpool.cjs"),
      "--import",
      "tsx",
      path.join(repoRoot, "test/helpers/pool-order-child.ts"),
      ...args,
    ],
    { cwd: repoRoot, env: { ...inherited, ...env }, encoding: "utf8", timeout: 60_000 },
  );
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

test("the preload sizes the pool before the ES module loader starts it", { skip: process.platform === "win32" }, () => {
  assert.equal(poolOrder([]), "long,short", "one thread: the short job waits behind the long one");
  assert.equal(poolOrder(["--parallel", "2"]), "short,long", "separate contexts get a thread each, and one more");
  assert.equal(poolOrder([], { UV_THREADPOOL_SIZE: "4" }), "short,long", "a size already in the environment is kept");
});
