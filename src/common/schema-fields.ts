// Zod building blocks for file formats whose error lines read "expected X": each block's message is its X.
import { z } from "zod";

export const text = z.string({ error: "a string" });
export const flag = z.boolean({ error: "true or false" });

const WHOLE = "a whole number >= 0";
/** A count: a whole number, zero or more. */
export const count = z.int({ error: WHOLE }).min(0, { error: WHOLE });
/** A finite number, zero or more (seconds). */
export const nonNegative = z.number({ error: "a number >= 0" }).min(0, { error: "a number >= 0" });

/** One of these values, named in the message as JSON (`one of "eos", "error"`). */
export function oneOf<const V extends readonly z.core.util.Literal[]>(values: V) {
  return z.literal(values, { error: expectedOneOf(values) });
}

/** The message of a check that takes one of `values`. */
export function expectedOneOf(values: readonly unknown[]): string {
  return values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
}

export function arrayOf<T extends z.ZodType>(item: T) {
  return z.array(item, { error: "an array" });
}

/** An object with these fields; others are allowed (a newer writer may add some) and left out of the output. */
export function object<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.object(shape, { error: "an object" });
}

/**
 * A field its writer may set to undefined, which JSON.stringify drops: optional in the file, but present (maybe
 * undefined) in the type, as in the record that was written.
 */
export function undefinable<T extends z.ZodType>(schema: T) {
  return schema.optional().transform((value) => value);
}
