// Filesystem failures as one line for the person at the command line: the path, what went wrong, what to do.
import { mkdirSync, rmdirSync, statSync } from "node:fs";
import path from "node:path";
import { UserError } from "./errors.ts";

/** What Node attaches to a failed system call. */
interface SystemError extends Error {
  readonly code: string;
  readonly syscall?: string;
  readonly path: string;
  readonly dest?: string;
}

/** What each error code means, and what a user can do about it. */
const CODES: Readonly<Record<string, readonly [string, string]>> = {
  ENOENT: ["no such file or folder", "check the path"],
  EACCES: ["permission denied", "check its permissions, or choose another path"],
  EPERM: ["operation not permitted", "check its permissions, or choose another path"],
  EISDIR: ["is a folder where a file was expected", "give a file, or move the folder away"],
  ERR_FS_EISDIR: ["is a folder where a file was expected", "give a file, or move the folder away"],
  ENOTDIR: ["a part of this path is a file, not a folder", "check the path"],
  EEXIST: ["already exists", "move it away, or choose another path"],
  ENOTEMPTY: ["folder not empty", "move it away, or choose another path"],
  EROFS: ["read-only file system", "choose a path on a writable disk"],
  ENOSPC: ["no space left on the device", "free some space, or choose another disk"],
  EDQUOT: ["disk quota exceeded", "free some space, or choose another disk"],
  ELOOP: ["too many symbolic links (a link loop?)", "fix the links"],
  ENAMETOOLONG: ["file name too long", "choose a shorter path"],
  EMFILE: ["too many open files", "raise the limit (ulimit -n), or close other programs"],
  EBUSY: ["busy", "wait, or close what holds it"],
  EIO: ["input/output error", "check the disk"],
  EINVAL: ["invalid argument for this file", "check that it is a plain file or folder"],
};

/** An error a file system call raised: it names the call and the path (a network error names no path). */
export function isSystemError(error: unknown): error is SystemError {
  const e = error as Partial<SystemError>;
  return (
    error instanceof Error && typeof e.code === "string" && typeof e.syscall === "string" && typeof e.path === "string"
  );
}

/** One line for a filesystem error, or undefined when `error` is not one. */
export function describeFsError(error: unknown): string | undefined {
  if (!isSystemError(error)) return undefined;
  const [what, todo] = CODES[error.code] ?? [error.message, "check the path"];
  const where = `${error.path}${error.dest !== undefined ? ` -> ${error.dest}` : ""}`;
  return `${where}: ${what} (${error.code}, ${error.syscall}); ${todo}`;
}

/**
 * A failed file system call on `file` as a UserError with describeFsError's line (and `then`, what follows for the
 * run), or `error` itself when it is no system error. A write's error names no path (ENOSPC on write says only
 * "write"), so the path is the caller's: the one rule that turns a full disk into one line wherever it happens.
 */
export function fsUserError(error: unknown, file: string, then = ""): unknown {
  const e = error as Partial<SystemError>;
  if (!(error instanceof Error) || typeof e.code !== "string" || typeof e.syscall !== "string") return error;
  const line = describeFsError(typeof e.path === "string" ? error : Object.assign(error, { path: file }));
  return line === undefined ? error : new UserError(`${line}${then}`);
}

/**
 * Checks, before any work, that a run could write into `dir`, leaving nothing behind: `dir` is a folder (or does not
 * exist yet, under a folder that is one) and a file can be made there. `flag` names the option that chose it.
 */
export function checkWritableFolder(dir: string, flag: string): void {
  let existing = path.resolve(dir);
  while (statOrUndefined(existing) === undefined && path.dirname(existing) !== existing)
    existing = path.dirname(existing);
  const stat = statOrUndefined(existing);
  if (stat && !stat.isDirectory()) {
    const what = existing === path.resolve(dir) ? `${dir} is a file` : `${existing} is a file, not a folder`;
    throw new UserError(`${flag} ${dir}: ${what}; ${flag} takes a folder: choose another path`);
  }
  const probe = path.join(existing, `.blogqa-write-test-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
  } catch (error) {
    const line = describeFsError(error);
    if (line === undefined) throw error;
    throw new UserError(`${flag} ${dir} cannot be written: ${line}`);
  }
}

function statOrUndefined(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
