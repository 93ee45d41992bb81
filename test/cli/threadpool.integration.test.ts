// Child processes started as the npm scripts start theirs: the pool they get is the one bin/threadpool.cjs chose.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../helpers/run-cli.ts";

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
