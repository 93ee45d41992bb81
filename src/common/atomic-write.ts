// Write-to-temp-then-rename: a reader (or a process killed mid-write) sees the old file or the new one, never half.
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fsUserError } from "./fs-errors.ts";

/** A temporary name beside `file` (same folder, so the rename stays on one filesystem), unique to this write. */
function temporaryName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
}

/**
 * Writes `data` to `file` atomically, creating its folder if needed. A failed write (a full disk: ENOSPC names no
 * path) is a UserError naming `file`.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const temp = temporaryName(file);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch (error) {
    throw fsUserError(error, file);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** writeFileAtomic without blocking the event loop. */
export async function writeFileAtomicAsync(file: string, data: string | Uint8Array): Promise<void> {
  const temp = temporaryName(file);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(temp, data);
    await rename(temp, file);
  } catch (error) {
    throw fsUserError(error, file);
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Writes a file through `write(temp)` (for writers that stream to a path) and renames it into place; returns what
 * `write` returned. The temporary file is removed if `write` throws.
 */
export function writeThroughTemp<T>(file: string, write: (temp: string) => T): T {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = temporaryName(file);
  try {
    const result = write(temp);
    renameSync(temp, file);
    return result;
  } finally {
    rmSync(temp, { force: true });
  }
}
