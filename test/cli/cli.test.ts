// The CLI's contract with a user: help exits 0, a bad command exits 2 with a message and no stack.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runCli } from "../helpers/run-cli.ts";

test("--help lists the usage and exits 0", () => {
  const result = runCli(["--help"]);
  assert.equal(result.status, 0);
  assert.match(result.stdout, /npm run -s blogqa -- <command>/);
});

test("an unknown command exits 2 and says why, without a stack trace", () => {
  const result = runCli(["no-such-command"]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /Unknown argument|Unknown command/i);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
});
