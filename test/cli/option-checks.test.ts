// Options refused before any work: rescore --judge's empty model or URL, timeouts a timer cannot take, compare's lone
// pairing flag.
import { test } from "node:test";
import assert from "node:assert/strict";
import { commandLine } from "../../src/commands/command-line.ts";
import { UserError } from "../../src/common/errors.ts";

/** The UserError the command line raises for `args`; yargs throws a check's error at once, not in the promise. */
async function failure(args: string[]): Promise<UserError> {
  const error = await (async () => commandLine(args, 110).parseAsync())().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof UserError, `expected a user error for ${args.join(" ")}, got ${String(error)}`);
  return error;
}

/** The usage error (exit status 2) the command line raises for `args`. */
async function refusal(args: string[]): Promise<UserError> {
  const error = await failure(args);
  assert.equal(error.exitCode, 2, error.message);
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

test("--judge-timeout and --request-timeout take whole milliseconds from 1 to 300 s; --judge-timeout needs --judge", async () => {
  // 1.0005 and 0.0001 were once in range, and made Node refuse every request ("The value of "delay" is out of range")
  for (const value of ["0", "-1", "301", "0.0001", "1.0005", "0.5"]) {
    assert.equal(
      (await refusal([...JUDGE, "--judge-model", "m", "--judge-timeout", value])).message,
      `--judge-timeout must be a number of seconds from 1 to 300 in whole milliseconds, got ${value}`,
    );
    assert.equal(
      (await refusal(["run", "--request-timeout", value, "--out", "/nonexistent/x"])).message,
      `--request-timeout must be a number of seconds from 1 to 300 in whole milliseconds, got ${value}`,
    );
  }
  // taken: the command then fails on the missing folder (exit 1), not on the value
  for (const value of ["1", "1.001", "2.5", "300"]) {
    const error = await failure([...JUDGE, "--judge-model", "m", "--judge-timeout", value]);
    assert.equal(error.exitCode, 1, `${value}: ${error.message}`);
  }
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
