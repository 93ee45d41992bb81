// One command line run to its exit status: its output through the given streams, its error as one line; never exits.
import { format } from "node:util";
import { clipLines, describeFsError, UserError } from "../common/index.ts";
import { commandLine } from "./command-line.ts";
import { type CommandIo, processIo, withIo } from "./io.ts";

/** The most characters of one error line; what a file or a model quoted into it beyond that is cut. */
const MAX_LINE = 2000;

/** The help's width when the caller names none (no terminal to measure). */
const DEFAULT_WIDTH = 110;

/**
 * What an error that ends a command prints on stderr, and the exit status. Errors a user can act on end in one clear
 * line: our own, and any file system error, whichever path it names. Anything else is a bug and keeps its stack.
 */
export function errorExit(error: unknown): { readonly text: string; readonly status: number } {
  if (error instanceof UserError)
    return { text: `blogqa: ${clipLines(error.message, MAX_LINE)}\n`, status: error.exitCode };
  const line = describeFsError(error);
  if (line !== undefined) return { text: `blogqa: ${line}\n`, status: 1 };
  return { text: `${error instanceof Error ? (error.stack ?? error.message) : format(error)}\n`, status: 1 };
}

/**
 * Runs the command line `argv` (the words after the script) and resolves to its exit status: 0, or the status of the
 * error it ended with, whose line has been written to `io.err`. yargs' own output (--help) goes to `io.out`. Nothing
 * in here ends the process: the entry (src/cli.ts) does, and keeps the signal handlers; a test calls this in process.
 */
export async function runCommandLine(
  argv: readonly string[],
  options: { readonly io?: CommandIo; readonly width?: number } = {},
): Promise<number> {
  const io = options.io ?? processIo;
  return withIo(io, async () => {
    const words = [...argv];
    // A parse callback makes yargs hand back what it would print (the help) and never call process.exit itself.
    let printed = "";
    try {
      await commandLine(words, options.width ?? DEFAULT_WIDTH).parseAsync(words, {}, (_error, _args, output) => {
        printed = output;
      });
    } catch (error) {
      const { text, status } = errorExit(error);
      io.err(text);
      return status;
    }
    if (printed !== "") io.out(`${printed}\n`);
    return 0;
  });
}
