// blogqa's only entry point: runs the command line on process.argv and ends the process with its status.
import { constants } from "node:os";
import { hideBin } from "yargs/helpers";
import { errorExit, runCommandLine } from "./commands/index.ts";

/** An error raised outside the command's own promise (a stream's, a timer's) ends the process as the command's would. */
function exitOn(error: unknown): never {
  const { text, status } = errorExit(error);
  process.stderr.write(text);
  process.exit(status);
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
const status = await runCommandLine(hideBin(process.argv), { width: Math.min(110, process.stdout.columns || 110) });
// A failed command ends at once, as it always has (a model or a server it opened is not waited for); a command that
// succeeded ends when its work is done.
if (status !== 0) process.exit(status);
