// One process per run folder: a second `run` on the same folder would interleave and duplicate lines.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { fsUserError, UserError } from "../common/index.ts";

export const LOCK_FILE = ".lock";

/**
 * What DIR/.lock records about its holder. A pid alone cannot tell a live run from a dead one whose pid the
 * system has since given to another process, so the lock also holds the process's start time (field 22 of
 * /proc/PID/stat), the host, and the boot id (a reboot ends every run). Older locks hold a bare pid.
 */
export interface LockHolder {
  readonly pid: number;
  readonly started?: string;
  readonly host?: string;
  readonly boot?: string;
}

export type HolderState = "running" | "gone" | "other-host";

/** Takes DIR/.lock or refuses, naming the file; a lock whose process is gone is taken over. Returns the release. */
export function acquireRunLock(dir: string, onNotice: (line: string) => void = () => {}): () => void {
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const text = readLock(file);
      if (text === undefined) continue; // released in between
      const holder = parseLock(text, file, dir);
      const state = holderState(holder);
      if (state === "running") {
        throw new UserError(
          `${dir} is in use by another blogqa run (pid ${holder.pid}, lock file ${file}). Wait for it to finish, or use another ` +
            `--out folder; if no blogqa run is using this folder, delete ${file}.`,
        );
      }
      if (state === "other-host") {
        throw new UserError(
          `${dir} is locked by a blogqa run on host ${holder.host} (pid ${holder.pid}, lock file ${file}), which this machine ` +
            `cannot check. Wait for it to finish, or use another --out folder; if no run is using this folder, delete ${file}.`,
        );
      }
      if (readLock(file) !== text) continue; // another process took it over first: look again
      rmSync(file, { force: true });
      onNotice(`${file}: took over a lock left by pid ${holder.pid}, which is no longer running`);
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(currentHolder())}\n`);
      closeSync(fd);
    } catch (error) {
      // An empty lock would refuse every later run: a lock that cannot be written is not left behind.
      rmSync(file, { force: true });
      throw fsUserError(error, file);
    }
    const release = () => rmSync(file, { force: true });
    process.once("exit", release);
    return () => {
      process.removeListener("exit", release);
      release();
    };
  }
  throw new UserError(`could not lock ${dir}: another run keeps taking ${file}`);
}

/**
 * Whether DIR/.lock is held by a run still going (here or on another host, which cannot be checked), read only: for
 * the commands that read a folder while a run may be writing it. A lock that cannot be read as one counts as held.
 */
export function runLockHeld(dir: string): boolean {
  const file = path.join(dir, LOCK_FILE);
  let text: string | undefined;
  try {
    text = readLock(file);
    return text !== undefined && holderState(parseLock(text, file, dir)) !== "gone";
  } catch {
    return text !== undefined;
  }
}

/** This process, as its lock records it. */
export function currentHolder(): LockHolder {
  const started = processStart(process.pid);
  const boot = bootId();
  return {
    pid: process.pid,
    ...(started !== undefined ? { started } : {}),
    host: hostname(),
    ...(boot !== undefined ? { boot } : {}),
  };
}

/** Whether the run that wrote a lock still runs, as far as this machine can tell. */
export function holderState(holder: LockHolder): HolderState {
  if (holder.host !== undefined && holder.host !== hostname()) return "other-host";
  const boot = bootId();
  if (holder.boot !== undefined && boot !== undefined && holder.boot !== boot) return "gone"; // rebooted since
  if (!isAlive(holder.pid)) return "gone";
  const started = processStart(holder.pid);
  if (holder.started !== undefined && started !== undefined && holder.started !== started) return "gone"; // pid reused
  return "running";
}

function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "EISDIR")
      throw new UserError(
        `${file} is a folder, not a blogqa lock file; if no blogqa run is using ${path.dirname(file)}, remove it`,
      );
    throw fsUserError(error, file);
  }
}

function parseLock(text: string, file: string, dir: string): LockHolder {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const value = JSON.parse(trimmed) as Partial<Record<keyof LockHolder, unknown>>;
    if (Number.isInteger(value.pid) && (value.pid as number) > 0) {
      const text = (v: unknown) => (typeof v === "string" ? v : undefined);
      const [started, host, boot] = [text(value.started), text(value.host), text(value.boot)];
      return {
        pid: value.pid as number,
        ...(started ? { started } : {}),
        ...(host ? { host } : {}),
        ...(boot ? { boot } : {}),
      };
    }
  } catch {
    // not JSON: below
  }
  const what =
    trimmed === ""
      ? "is empty (a run starting this instant, or one that died while starting)"
      : "does not hold a blogqa lock";
  throw new UserError(`${file} ${what}; if no blogqa run is using ${dir}, delete ${file}`);
}

/** Field 22 of /proc/PID/stat, the process's start in clock ticks since boot; undefined off Linux. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2, the command name, may hold spaces and parentheses: count from the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
