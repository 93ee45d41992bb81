// Every option of every command, walked from the command line's own yargs definitions: given no value (last on the
// line, or before another flag), or a value no option of its kind takes, it is a usage error (exit status 2) naming
// the option, and the command never runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Argv } from "yargs";
import { commandLine } from "../../src/commands/command-line.ts";
import { UserError } from "../../src/common/errors.ts";

/** Thrown by a command's handler, stubbed: the command line took the arguments. */
class Accepted extends Error {}

/** yargs' record of a command's handler (its internals: nothing public lists a command's subcommands and options). */
interface Handler {
  handler: (argv: unknown) => unknown;
  builder: unknown;
  demanded: readonly unknown[];
}
type Internal = Argv & {
  getInternalMethods(): { getCommandInstance(): { getCommandHandlers(): Record<string, Handler> } };
  getOptions(): {
    key: Record<string, unknown>;
    boolean: string[];
    number: string[];
    choices: Record<string, readonly unknown[]>;
    alias: Record<string, string[]>;
    demandedOptions: Record<string, unknown>;
  };
  getGroups(): Record<string, string[]>;
};
const handlersOf = (y: Argv) => (y as Internal).getInternalMethods().getCommandInstance().getCommandHandlers();

/** `y` with every command's handler, at every depth, replaced by one that throws Accepted. */
function stubbed(y: Argv): Argv {
  for (const h of Object.values(handlersOf(y))) {
    h.handler = () => {
      throw new Accepted();
    };
    const builder = h.builder;
    if (typeof builder === "function")
      h.builder = (inner: Argv) => {
        const out = builder(inner);
        stubbed(inner);
        return out;
      };
  }
  return y;
}

/** How `args` ends: a UserError (its exit status and message), or "accepted" when the command would have run. */
async function outcome(args: readonly string[]): Promise<{ exitCode: number; message: string } | "accepted"> {
  try {
    await stubbed(commandLine([...args], 110)).parseAsync();
  } catch (error) {
    if (error instanceof Accepted) return "accepted";
    if (error instanceof UserError) return { exitCode: error.exitCode, message: error.message };
    throw error;
  }
  return "accepted";
}

/** A command as yargs defines it: the words that reach it, stand-ins for its positionals, its options by kind. */
interface CommandShape {
  readonly words: readonly string[];
  readonly positionals: readonly string[];
  /** Stand-ins for the options it demands, which yargs checks before any value. */
  readonly demanded: Readonly<Record<string, string>>;
  readonly values: readonly string[];
  readonly numbers: readonly string[];
  readonly choices: readonly string[];
  readonly flag: string | undefined;
}

class Seen extends Error {}

/** Every command under `words` (which takes `positionals`), itself included, read from yargs' own records. */
async function commandsUnder(words: readonly string[], positionals: readonly string[]): Promise<CommandShape[]> {
  let shape: CommandShape | undefined;
  let children: [string, number][] = [];
  const probe = (_argv: unknown, y: Argv) => {
    const o = (y as Internal).getOptions();
    const positional = new Set((y as Internal).getGroups()["Positionals:"] ?? []);
    const aliases = new Set(Object.values(o.alias).flat());
    const named = Object.keys(o.key).filter(
      (k) => !positional.has(k) && !aliases.has(k) && !["help", "version"].includes(k),
    );
    const booleans = named.filter((k) => o.boolean.includes(k));
    shape = {
      words,
      positionals,
      demanded: Object.fromEntries(Object.keys(o.demandedOptions).map((k) => [k, "/nonexistent/x"])),
      values: named.filter((k) => !o.boolean.includes(k)),
      numbers: named.filter((k) => o.number.includes(k)),
      choices: named.filter((k) => o.choices[k] !== undefined),
      flag: booleans[0],
    };
    children = Object.entries(handlersOf(y)).map(([name, h]) => [name, h.demanded.length]);
    throw new Seen();
  };
  const cli = commandLine([...words, ...positionals], 110).middleware(
    probe as unknown as (argv: unknown) => void,
    true,
  );
  // a middleware's throw comes out of parseAsync at once, not in its promise
  await assert.rejects(async () => cli.parseAsync(), Seen, `reading ${words.join(" ")}`);
  const below = [];
  for (const [name, demanded] of children)
    below.push(...(await commandsUnder([...words, name], Array(demanded).fill("/nonexistent/run"))));
  return [shape!, ...below];
}

test("every option of every command, given no value or a bad one, is a usage error naming it", async () => {
  const commands = (await commandsUnder([], [])).filter((c) => c.words.length > 0);
  // the walk found the command line: a command, a subcommand, a positional, each kind of option
  assert.ok(commands.length >= 20, `${commands.length} commands`);
  const words = commands.map((c) => c.words.join(" "));
  for (const expected of ["run", "questions check", "rescore", "make-tiny-embedder"])
    assert.ok(words.includes(expected));
  const all = (pick: (c: CommandShape) => readonly string[]) => new Set(commands.flatMap(pick));
  for (const flag of ["limit", "request-timeout", "retries", "hidden", "judge-timeout", "weights", "designs"])
    assert.ok(all((c) => c.values).has(flag), flag);

  const wrong: string[] = [];
  let cases = 0;
  for (const c of commands) {
    const others = (option: string) =>
      Object.entries(c.demanded).flatMap(([k, v]) => (k === option ? [] : [`--${k}`, v]));
    const bad = (option: string) => [
      [`--${option}`],
      ...(c.flag !== undefined ? [[`--${option}`, `--${c.flag}`]] : []),
      ...(c.numbers.includes(option)
        ? [
            [`--${option}`, "abc"],
            [`--${option}`, "-1"],
          ]
        : []),
      ...(c.choices.includes(option) ? [[`--${option}`, "no-such-choice"]] : []),
    ];
    for (const option of c.values)
      for (const tail of bad(option)) {
        cases++;
        const args = [...c.words, ...c.positionals, ...others(option), ...tail];
        const got = await outcome(args);
        if (got === "accepted") wrong.push(`${args.join(" ")}: accepted`);
        else if (got.exitCode !== 2 || !got.message.includes(`--${option}`))
          wrong.push(`${args.join(" ")}: exit ${got.exitCode}, ${JSON.stringify(got.message)}`);
      }
  }
  assert.ok(cases > 200, `${cases} cases`);
  assert.deepEqual(wrong, []);
});
