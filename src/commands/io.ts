// Where a command's output goes and what it reads: the process's own streams, or those a caller in process gave.
import { AsyncLocalStorage } from "node:async_hooks";
import { withEnvironment } from "../common/index.ts";

/** What a command writes to, reads from and looks up; the entry gives the process's, a test its own buffers. */
export interface CommandIo {
  /** stdout: what the command prints (a table, JSON, a path). */
  readonly out: (text: string) => void;
  /** stderr: notices, progress, the error line. */
  readonly err: (text: string) => void;
  /** stdin, for the commands that read a reply from it; `isTTY` when a terminal is attached. */
  readonly stdin: AsyncIterable<Buffer | string> & { readonly isTTY?: boolean };
  /** The variables the command and its stages read, through `environment()` (npm's, the cache folder's, a key's). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The process's own streams and environment: what the entry runs with, and the default outside any run. */
export const processIo: CommandIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  get stdin() {
    return process.stdin;
  },
  get env() {
    return process.env;
  },
};

/**
 * Per call, not per module: two command lines run at once in one process (tests) each keep their own streams through
 * every await, and a command run outside `withIo` writes to the process's.
 */
const current = new AsyncLocalStorage<CommandIo>();

/**
 * Runs `body` with `io` as the streams every command helper below writes to, and `io.env` as the variables the
 * stages read (an API key, the hub's address, the cache folder).
 */
export function withIo<T>(io: CommandIo, body: () => T): T {
  return current.run(io, () => withEnvironment(io.env, body));
}

/** The streams of the command line being run. */
export function io(): CommandIo {
  return current.getStore() ?? processIo;
}

/** Prints `text` and a newline on the command's stdout, as console.log would. */
export function say(text: string): void {
  io().out(`${text}\n`);
}

/** Writes `line` and a newline on the command's stderr, as console.error would. */
export function warn(line: string): void {
  io().err(`${line}\n`);
}
