// Options checked as typed: a repeated option and an empty number are refused before yargs sums or zeroes them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { rawOptionProblem } from "../../src/commands/raw-options.ts";
import { commandLine } from "../../src/commands/command-line.ts";
import { UserError } from "../../src/common/errors.ts";

const KNOWN = {
  keys: ["limit", "seed", "designs", "design", "model", "gpu", "max-new-tokens", "out"],
  aliases: { designs: ["design"] },
  arrays: ["model"],
  numbers: ["limit", "seed", "max-new-tokens"],
  booleans: ["gpu"],
};

test("an option given twice is refused with both values, whichever spelling each time", () => {
  assert.equal(
    rawOptionProblem(["run", "--limit", "6", "--limit", "1"], KNOWN),
    "--limit given 2 times (6, 1): give it once",
  );
  assert.equal(rawOptionProblem(["--limit=6", "--limit=1"], KNOWN), "--limit given 2 times (6, 1): give it once");
  assert.equal(
    rawOptionProblem(["--max-new-tokens", "30", "--maxNewTokens", "1"], KNOWN),
    "--max-new-tokens given 2 times (30, 1): give it once",
  );
  assert.equal(
    rawOptionProblem(["--designs", "a", "--design", "b"], KNOWN),
    "--designs given 2 times (a, b): give it once",
  );
  assert.equal(rawOptionProblem(["--gpu", "--no-gpu"], KNOWN), "--gpu given 2 times (true, false): give it once");
});

test("list options, single options and words after -- pass", () => {
  assert.equal(rawOptionProblem(["--model", "a", "--model", "b", "--limit", "1"], KNOWN), undefined);
  assert.equal(rawOptionProblem(["--limit", "1", "--", "--limit", "2"], KNOWN), undefined);
  assert.equal(rawOptionProblem(["--seed", "-1", "--bogus", "--bogus"], KNOWN), undefined);
});

test("a number option with an empty value is refused, not read as 0", () => {
  assert.match(rawOptionProblem(["--seed="], KNOWN) ?? "", /^--seed was given an empty value/);
  assert.match(rawOptionProblem(["--seed", ""], KNOWN) ?? "", /^--seed was given an empty value/);
  assert.equal(rawOptionProblem(["--out="], KNOWN), undefined);
});

test("an option that takes a value and is given none is refused, not left at its default", () => {
  assert.equal(
    rawOptionProblem(["run", "--limit"], KNOWN),
    "--limit was given no value (an unset shell variable?): give a number",
  );
  assert.equal(
    rawOptionProblem(["run", "--out", "--gpu"], KNOWN),
    "--out was given no value (an unset shell variable?): give a value",
  );
  assert.match(rawOptionProblem(["--model", "--limit", "1"], KNOWN) ?? "", /^--model was given no value/);
  assert.equal(rawOptionProblem(["--seed", "-1", "--gpu", "--out", "x"], KNOWN), undefined);
});

test("a number option given a word is refused with the word, not read as NaN", () => {
  assert.equal(rawOptionProblem(["--limit", "abc"], KNOWN), "--limit takes a number, got abc");
  assert.equal(rawOptionProblem(["--seed=Infinity"], KNOWN), "--seed takes a number, got Infinity");
  assert.equal(rawOptionProblem(["--seed", "1e3"], KNOWN), undefined);
});

/** The usage error the command line raises for `args`, before any command runs. */
async function refusal(args: string[]): Promise<UserError> {
  // yargs throws from a middleware at once, not in the promise
  const error = await (async () => commandLine(args, 110).parseAsync())().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof UserError, `expected a usage error for ${args.join(" ")}, got ${String(error)}`);
  return error;
}

test("every numeric option of run given twice, the last time as 1, is a usage error (exit status 2)", async () => {
  for (const flag of ["limit", "max-new-tokens", "parallel", "samples", "seed", "threads", "context-size", "retries"]) {
    const error = await refusal(["run", `--${flag}`, "6", `--${flag}`, "1", "--out", "/nonexistent/x"]);
    assert.equal(error.message, `--${flag} given 2 times (6, 1): give it once`);
    assert.equal(error.exitCode, 2);
  }
  for (const flag of ["top-k", "temperature", "top-p", "request-timeout"]) {
    const error = await refusal(["run", `--${flag}`, "0.5", `--${flag}`, "1", "--out", "/nonexistent/x"]);
    assert.equal(error.message, `--${flag} given 2 times (0.5, 1): give it once`);
  }
  assert.equal((await refusal(["run", "--seed=", "--out", "/nonexistent/x"])).exitCode, 2);
  assert.equal((await refusal(["cost", "--prefix", "5", "--prefix", "1"])).exitCode, 2);
});
