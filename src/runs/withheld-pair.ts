// withheld-pair.json: the second run folder that `rescore --against` or `report --against` paired this one with for
// the withheld-source test, recorded so that every later command that writes tables writes that table too.
import path from "node:path";
import type { z } from "zod";
import { field, schemaMismatch, UserError, writeFileAtomic } from "../common/index.ts";
import { readJsonIfPresent } from "./json-file.ts";

export const WITHHELD_PAIR_FILE = "withheld-pair.json";
const WITHHELD_PAIR_SCHEMA_VERSION = 1;

export const withheldPairSchema = field
  .object({
    schema: field.oneOf([WITHHELD_PAIR_SCHEMA_VERSION]),
    against: field.text.describe(
      "The paired run folder, relative to this one's (so that moving both together keeps the pair), or absolute.",
    ),
  })
  .describe("withheld-pair.json: the run folder the withheld-source test pairs this one with.");

export type WithheldPair = z.output<typeof withheldPairSchema>;

/** Records `other` as this folder's pair, relative to `dir` when both share a root. */
export function recordWithheldPair(dir: string, other: string): void {
  const relative = path.relative(path.resolve(dir), path.resolve(other));
  const against = path.isAbsolute(relative) ? path.resolve(other) : relative;
  const record: WithheldPair = { schema: WITHHELD_PAIR_SCHEMA_VERSION, against };
  writeFileAtomic(path.join(dir, WITHHELD_PAIR_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * The paired folder's path as seen from where `dir` is named (relative stays relative); undefined for a folder never paired. A file that is not one this
 * blogqa wrote stops with one line naming it.
 */
export function readWithheldPair(dir: string): string | undefined {
  const file = path.join(dir, WITHHELD_PAIR_FILE);
  const value = readJsonIfPresent(file);
  if (value === undefined) return undefined;
  const parsed = withheldPairSchema.safeParse(value);
  if (!parsed.success) {
    const { path: where, problem } = schemaMismatch(value, parsed.error.issues[0]!);
    throw new UserError(`${file}: ${where === "" ? "" : `field ${where}: `}${problem}; fix or remove it`);
  }
  const { against } = parsed.data;
  return path.isAbsolute(against) ? against : path.join(dir, against);
}
