// Options refused before any work: rescore --judge's empty model or URL and bad timeout, compare's lone pairing flag.
import { test } from "node:test";
import assert from "node:assert/strict";
import { commandLine } from "../../src/commands/command-line.ts";
import { UserError } from "../../src/common/errors.ts";

/** The usage error the command line raises for `args`; yargs throws a check's error at once, not in the promise. */
async function refusal(args: string[]): Promise<UserError> {
  const error = await (async () => commandLine(args, 110).parseAsync())().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof UserError, `expected a usage error for ${args.join(" ")}, got ${String(error)}`);
  assert.equal(error.exitCode, 2);
  return error;
}

const JUDGE = ["rescore", "/nonexistent/run", "--judge", "http://127.0.0.1:9/v1"];

test("an empty --judge-model or --judge is refused", async () => {
  assert.match((await refusal([...JUDGE, "--judge-model", ""])).message, /^--judge-model was given an empty value/);
  assert.match(
    (await refusal(["rescore", "/nonexistent/run", "--judge", " ", "--judge-model", "m"])).message,
    /^--judge was given an empty value/,
  );
});

test("--judge-timeout takes seconds above 0 and at most 300, and needs --judge", async () => {
  for (const value of ["0", "-1", "301", "abc"])
    assert.match(
      (await refusal([...JUDGE, "--judge-model", "m", "--judge-timeout", value])).message,
      /^--judge-timeout must be a number of seconds above 0 and at most 300$/,
    );
  assert.equal(
    (await refusal(["rescore", "/nonexistent/run", "--judge-timeout", "5"])).message,
    "--judge-timeout needs --judge URL",
  );
});

test("compare --common-questions without a second folder is refused, not silently ignored", async () => {
  assert.equal(
    (await refusal(["compare", "/nonexistent/run", "--common-questions"])).message,
    "--common-questions pairs two folders: give the second run folder after the first",
  );
});
