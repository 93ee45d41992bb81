// Up-to-date checks for generated models: a JSON stamp of everything their bytes depend on, written after them.
import fs from "node:fs";
import { writeFileAtomic } from "../common/index.ts";

/**
 * The stamp stored at `file` when, leaving out the keys in `extra` (facts known only after writing, like a size),
 * it records exactly `expected`; undefined when it differs, is missing or is unreadable, so the model is rewritten.
 * Example: currentStamp("m.gguf.stamp.json", {generator: 1, seed: 7}, ["bytes"]) -> {generator: 1, seed: 7, bytes: 45e6}.
 */
export function currentStamp(
  file: string,
  expected: object,
  extra: readonly string[] = [],
): Record<string, unknown> | undefined {
  let stored: unknown;
  try {
    stored = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return undefined;
  const compared = Object.fromEntries(Object.entries(stored).filter(([key]) => !extra.includes(key)));
  return stampText(compared) === stampText(expected) ? (stored as Record<string, unknown>) : undefined;
}

/** The stamp's bytes: two-space JSON and a newline, keys in the order given. */
export function stampText(stamp: object): string {
  return `${JSON.stringify(stamp, null, 2)}\n`;
}

/** Writes the stamp (through a temporary file and a rename, so a reader never sees half of one). */
export function writeStamp(file: string, stamp: object): void {
  writeFileAtomic(file, stampText(stamp));
}
