// The command line itself: every command registered on one yargs instance, its usage line, checks and usage errors.
// run-command-line.ts runs a command line on it; scripts/write-command-reference.ts asks it for each --help.
import yargs, { type Argv } from "yargs";
import { environment } from "../common/index.ts";
import { auditCommands } from "./audit.ts";
import { corpusCommands } from "./corpus.ts";
import { costCommands } from "./cost.ts";
import { embedderCommands } from "./embedder.ts";
import { exportPromptsCommands } from "./export-prompts.ts";
import { llmCommands } from "./llm.ts";
import { checkPathKinds, usageError as optionError } from "./options.ts";
import { parseCallsCommands } from "./parse-calls.ts";
import { rawOptionProblem } from "./raw-options.ts";
import { reportCommands } from "./report.ts";
import { rescoreCommands } from "./rescore.ts";
import { searchCommands } from "./search.ts";
import { smokeCommands } from "./smoke.ts";
import { studyCommands } from "./study.ts";
import { npmOptionsHint, usageError } from "./usage-errors.ts";

/** The part of yargs' record of a command's options that the checks on the typed words read. */
interface YargsOptions {
  readonly key: Record<string, unknown>;
  readonly alias: Record<string, readonly string[]>;
  readonly array: readonly string[];
  readonly number: readonly string[];
  readonly boolean: readonly string[];
  readonly choices: Readonly<Record<string, readonly unknown[]>>;
  readonly hiddenOptions: readonly string[];
}

/** Each file's commands, in the order --help lists them. */
const commands = [
  corpusCommands,
  searchCommands,
  embedderCommands,
  llmCommands,
  studyCommands,
  rescoreCommands,
  costCommands,
  smokeCommands,
  reportCommands,
  auditCommands,
  parseCallsCommands,
  exportPromptsCommands,
];

/**
 * The command line for `argv` (the arguments after the script), its help wrapped at `width` columns. A usage error
 * is thrown as a UserError of exit status 2: `<what was wrong>` and, for yargs' own, a line `run with --help`.
 */
export function commandLine(argv: string[], width: number): Argv {
  /** The option names of the command being parsed, for the nearest one to a misspelt flag. */
  let knownOptions: readonly string[] = [];
  let suggestable: readonly string[] = [];
  /** yargs hands a middleware its instance too (its types name only the arguments), which knows the options. */
  function rememberOptions(
    _args: unknown,
    y: { getOptions(): YargsOptions; getGroups(): Record<string, readonly string[]> },
  ): void {
    const options = y.getOptions();
    knownOptions = Object.keys(options.key);
    // A positional (audit's RUN) or a hidden option is no option to suggest: --runs must not get "did you mean --run?"
    const unsuggested = new Set([...(y.getGroups()["Positionals:"] ?? []), ...options.hiddenOptions]);
    suggestable = knownOptions.filter((name) => !unsuggested.has(name));
    // Before yargs' own checks see the parsed values, which have already summed a repeated number.
    const problem = rawOptionProblem(argv, {
      keys: knownOptions,
      aliases: options.alias,
      arrays: options.array,
      numbers: options.number,
      booleans: options.boolean,
      choices: options.choices,
    });
    if (problem !== undefined) throw optionError(problem);
  }
  return (
    commands
      .reduce((y, register) => register(y), yargs(argv))
      .scriptName("blogqa")
      .usage(
        "$0 <command> [options]\n\nReproduce the workflow-vs-agent study on a blog.\nRun as: npx blogqa <command>  or  npm run -s blogqa -- <command>",
      )
      .demandCommand(1, "Name a command.")
      .strict()
      .strictCommands()
      .recommendCommands()
      // Before validation, so that a usage error can name the command's own options.
      .middleware(rememberOptions as (args: unknown) => void, true)
      .middleware((args) => checkPathKinds(args))
      .wrap(width)
      .help()
      .fail((message, error) => {
        // yargs reports an option's coerce error (a value it refused) as its own YError: a usage error, not a bug
        if (error && error.name !== "YError") throw error;
        const npm = npmOptionsHint(argv, knownOptions, environment());
        const hint = npm === undefined ? "run with --help" : `${npm}\nrun with --help`;
        // Thrown, not printed and exited: the entry prints it as every other error, and a caller in process gets it.
        throw optionError(`${usageError(message ?? error?.message ?? "", argv, suggestable)}\n${hint}`);
      })
  );
}
