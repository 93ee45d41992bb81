// blogqa's only entry point: parses the command line and hands each command to src/commands/.
import { constants } from "node:os";
import { hideBin } from "yargs/helpers";
import { commandLine } from "./commands/index.ts";
import { clipLines, describeFsError, UserError } from "./common/index.ts";

/** The most characters of one error line; what a file or a model quoted into it beyond that is cut. */
const MAX_LINE = 2000;

const cli = commandLine(hideBin(process.argv), Math.min(110, process.stdout.columns || 110));

/**
 * Errors a user can act on end in one clear line: our own, and any file system error, whichever path it names.
 * Anything else is a bug and keeps its stack. Errors raised outside the command's own promise (a stream's, a timer's)
 * are treated alike.
 */
function exitOn(error: unknown): never {
  if (error instanceof UserError) {
    console.error(`blogqa: ${clipLines(error.message, MAX_LINE)}`);
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

/**
 * SIGINT and SIGTERM end the command at once with the shell's status for them (130, 143). Through process.exit, so
 * the exit listeners still run: a run folder's lock is released. Posts are parsed in a worker, so the main thread is
 * free to run this while one is parsed; what a run had written stays, and the same command resumes it.
 */
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`blogqa: stopped by ${signal}`);
    process.exit(128 + constants.signals[signal]);
  });
}
process.on("uncaughtException", exitOn);
process.on("unhandledRejection", exitOn);
try {
  await cli.parseAsync();
} catch (error) {
  exitOn(error);
}
