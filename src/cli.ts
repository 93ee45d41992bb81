// blogqa's only entry point: parses the command line and hands each command to src/commands/.
import { hideBin } from "yargs/helpers";
import { commandLine } from "./commands/index.ts";
import { UserError } from "./common/index.ts";
import { describeFsError } from "./common/index.ts";

const cli = commandLine(hideBin(process.argv), Math.min(110, process.stdout.columns || 110));

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
