// Zod building blocks for manifest.json, whose error lines read "expected a string", "expected a number or null".
import { z } from "zod";

export const str = z.string({ error: "a string" });
export const num = z.number({ error: "a number" });
export const strOrNull = z.string({ error: "a string or null" }).nullable();
export const numOrNull = z.number({ error: "a number or null" }).nullable();
export const boolOrNull = z.boolean({ error: "a boolean or null" }).nullable();

/** An object with these fields; others are allowed (a newer writer may add some). */
export function object<S extends z.core.$ZodLooseShape>(shape: S, what = "an object") {
  return z.object(shape, { error: what });
}

export function arrayOf<T extends z.ZodType>(item: T, what = "an array") {
  return z.array(item, { error: what });
}
