// A run folder's JSON record read as it is: undefined when the file is absent, one line naming it when it is not JSON.
import { existsSync, readFileSync } from "node:fs";
import { UserError } from "../common/index.ts";

/** The parsed value of `file`, or undefined when there is no such file; the caller checks its shape. */
export function readJsonIfPresent(file: string): unknown {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UserError(`${file} is not valid JSON (${(error as Error).message}); fix or remove it`);
  }
}
