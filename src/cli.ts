// blogqa's only entry point: parses the command line and hands each command to src/commands/.
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import {
  auditCommands,
  checkPathKinds,
  corpusCommands,
  embedderCommands,
  exportPromptsCommands,
  llmCommands,
  parseCallsCommands,
  reportCommands,
  searchCommands,
  smokeCommands,
  studyCommands,
  usageError,
} from "./commands/index.ts";
import { UserError } from "./common/index.ts";
import { describeFsError } from "./common/index.ts";

const argv = hideBin(process.argv);

/** The option names of the command being parsed, for the nearest one to a misspelt flag. */
let knownOptions: readonly string[] = [];

/** yargs hands a middleware its instance too (its types name only the arguments), which knows the options. */
function rememberOptions(_args: unknown, y: { getOptions(): { key: Record<string, unknown> } }): void {
  knownOptions = Object.keys(y.getOptions().key);
}

const commands = [
  corpusCommands,
  searchCommands,
  embedderCommands,
  llmCommands,
  studyCommands,
  smokeCommands,
  reportCommands,
  auditCommands,
  parseCallsCommands,
  exportPromptsCommands,
];
const cli = commands
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
  .wrap(Math.min(110, process.stdout.columns || 110))
  .help()
  .fail((message, error) => {
    // yargs reports an option's coerce error (a value it refused) as its own YError: a usage error, not a bug
    if (error && error.name !== "YError") throw error;
    console.error(`blogqa: ${usageError(message ?? error?.message ?? "", argv, knownOptions)}\nrun with --help`);
    process.exit(2);
  });

/**
 * Errors a user can act on end in one clear line: our own, and any file system error, whichever path it names.
 * Anything else is a bug and keeps its stack. Errors raised outside the command's own promise (a stream's, a timer's)
 * are treated alike.
 */
function exitOn(error: unknown): never {
  if (error instanceof UserError) {
    console.error(`blogqa: ${error.message}`);
    process.exit(error.exitCode);
  }
  const line = describeFsError(error);
  if (line !== undefined) {
    console.error(`blogqa: ${line}`);
    process.exit(1);
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
}

process.on("uncaughtException", exitOn);
process.on("unhandledRejection", exitOn);
try {
  await cli.parseAsync();
} catch (error) {
  exitOn(error);
}
