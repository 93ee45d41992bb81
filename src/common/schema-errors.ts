// Turns the first zod issue of a parsed file into the line its reader prints: the field's path, then what is wrong.
import type { z } from "zod";

/** Where a value does not fit: a path such as `transcript.calls[2].reply` ("" for the value itself), and why. */
export interface SchemaMismatch {
  readonly path: string;
  readonly problem: string;
}

/** Says what was found instead, for "expected X, got Y". */
type Describe = (value: unknown) => string;

/** A value as the log's error lines name it: `a string ("yes")`, `the number -3`, `null`, `an array`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string")
    return `a string (${JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}...` : value)})`;
  return `${typeof value === "number" ? "the number" : "the"} ${String(value)}`;
}

export function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : out === "" ? String(key) : `${out}.${String(key)}`),
    "",
  );
}

/**
 * One issue as a mismatch. The schemas' messages say what they expect ("a whole number >= 0"), so a type issue reads
 * "expected X" (with ", got Y" when `describe` is given). A refinement's message and an unknown key's say what is
 * wrong and stand as they are; an unknown key is named by its own path. A field that is absent is "missing",
 * whatever its schema would have said: JSON.stringify drops undefined, so absent and undefined are one case.
 */
export function schemaMismatch(root: unknown, issue: z.core.$ZodIssue, describe?: Describe): SchemaMismatch {
  const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path;
  const { present, value } = valueAt(root, path);
  if (!present) return { path: pathText(path), problem: "missing" };
  if (issue.code === "custom" || issue.code === "unrecognized_keys")
    return { path: pathText(path), problem: issue.message };
  const got = describe ? `, got ${describe(value)}` : "";
  return { path: pathText(path), problem: `expected ${issue.message}${got}` };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let value = root;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return { present: false, value };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { present: value !== undefined, value };
}
