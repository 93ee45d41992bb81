// Runs the command line in this process, its stdout and stderr captured: the message and exit-status tests, without
// the second or two a new process spends starting.
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { runCommandLine } from "../../src/commands/index.ts";
import type { CliResult } from "./run-cli.ts";

/** What a command may leave behind in this process that the next command (or test) would then inherit. */
interface ProcessState {
  readonly cwd: string;
  readonly exitCode: typeof process.exitCode;
  readonly listeners: Record<string, number>;
}

const WATCHED_EVENTS = ["SIGINT", "SIGTERM", "exit", "uncaughtException", "unhandledRejection"] as const;

const processState = (): ProcessState => ({
  cwd: process.cwd(),
  exitCode: process.exitCode,
  listeners: Object.fromEntries(WATCHED_EVENTS.map((e) => [e, process.listenerCount(e)])),
});

/** Command lines in flight here, and the state from before the first of them: checked when the last one ends. */
let inFlight = 0;
let before: ProcessState | undefined;

/**
 * The CLI as `runCli` runs it (the same command line, the same error lines and statuses), in this process: `input`
 * is its stdin, `env` is laid over this process's environment for what the commands read from it (this process's
 * own environment is not changed). Relative paths resolve against this process's working folder. Several may run at
 * once, each with its own output; when the last ends, the process must be as before (no listener, exit code or
 * working folder left behind by a command), or the test fails.
 */
export async function runCliInProcess(
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; width?: number } = {},
): Promise<CliResult> {
  if (inFlight++ === 0) before = processState();
  let stdout = "";
  let stderr = "";
  const stdin = Readable.from([Buffer.from(options.input ?? "")]);
  let status: number;
  try {
    status = await runCommandLine(args, {
      io: {
        out: (text) => {
          stdout += text;
        },
        err: (text) => {
          stderr += text;
        },
        stdin,
        env: { ...process.env, ...options.env },
      },
      ...(options.width === undefined ? {} : { width: options.width }),
    });
  } finally {
    if (--inFlight === 0) assert.deepEqual(processState(), before, `${args.join(" ")} left state behind`);
  }
  return { status, stdout, stderr };
}
