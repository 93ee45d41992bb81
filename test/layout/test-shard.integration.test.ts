// scripts/test-shard.ts, which runs a tier's files in one process: each file's tests in its own suite, and no file
// loading while another file's tests run (a helper's listener added mid-test would fail the in-process CLI tests).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../helpers/run-cli.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const tempFolder = tempFolders("blogqa-test-shard");

test("each file's tests run in its own suite, after every file has loaded", () => {
  const dir = tempFolder("files");
  const first = path.join(dir, "first.test.mts");
  const second = path.join(dir, "second.test.mts");
  writeFileSync(
    first,
    `import { test } from "node:test";
import assert from "node:assert/strict";
test("first: no listener comes or goes while it runs", async () => {
  const before = process.listenerCount("exit");
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.equal(process.listenerCount("exit"), before);
});
`,
  );
  // Loads slowly, then adds a listener, as a helper that stops its servers on exit does.
  writeFileSync(
    second,
    `import { test } from "node:test";
await new Promise((resolve) => setTimeout(resolve, 200));
process.on("exit", () => {});
test("second: runs in its own suite", () => {});
`,
  );
  // Without the runner's own NODE_TEST_CONTEXT, which would make the child report to this runner instead of in TAP.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "--test", "--test-reporter=tap", path.join(repoRoot, "scripts/test-shard.ts")],
    { cwd: repoRoot, encoding: "utf8", env: { ...env, BLOGQA_TEST_FILES: `${first}\n${second}` } },
  );
  assert.equal(result.status, 0, result.stdout + result.stderr);
  // TAP writes a suite's tests four spaces in, then the suite's own line at the left margin.
  const lines = result.stdout.split("\n");
  const suiteOf = (name: string) => {
    const at = lines.findIndex((l) => l.endsWith(`- ${name}`));
    assert.ok(at >= 0, `${name} reported:\n${result.stdout}`);
    assert.match(lines[at]!, /^ {4}ok /, `${name} is a suite's test:\n${result.stdout}`);
    return lines.slice(at).find((l) => /^ok \d+ - \//.test(l));
  };
  assert.match(suiteOf("first: no listener comes or goes while it runs") ?? "", /first\.test\.mts$/);
  assert.match(suiteOf("second: runs in its own suite") ?? "", /second\.test\.mts$/);
});
