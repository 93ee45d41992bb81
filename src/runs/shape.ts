// A small checker of parsed JSON against a declared shape: the first field that does not fit, by its path.
// Example: check(object({ n: integer }), { n: "3" }) -> { path: "n", problem: "expected an integer, got a string" }

/** Where a value does not fit: a path such as `transcript.calls[2].reply`, and what is wrong there. */
export interface ShapeMismatch {
  readonly path: string;
  readonly problem: string;
}

/** A shape checks a value found at `path` and returns the first mismatch, or undefined when it fits. */
export type Shape = (value: unknown, path: string) => ShapeMismatch | undefined;

/**
 * A shape for each field of T, for `satisfies`: tsc then fails where T gains, loses or renames a field and its
 * checker was not told.
 */
export type FieldsOf<T> = { readonly [K in keyof T]-?: Shape | OptionalShape };

/** Every value of a string union, for `literal`: `keysOf({ a: 1, b: 1 } satisfies Record<Union, 1>)`. */
export function keysOf<K extends string>(record: Readonly<Record<K, 1>>): K[] {
  return Object.keys(record) as K[];
}

/** An object field that may be absent (JSON.stringify drops undefined, so absent is how undefined is logged). */
export interface OptionalShape {
  readonly optional: Shape;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string")
    return `a string (${JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}...` : value)})`;
  return `${typeof value === "number" ? "the number" : "the"} ${String(value)}`;
}

const mismatch = (path: string, expected: string, value: unknown): ShapeMismatch => ({
  path,
  problem: `expected ${expected}, got ${describe(value)}`,
});

export const string: Shape = (v, p) => (typeof v === "string" ? undefined : mismatch(p, "a string", v));
export const boolean: Shape = (v, p) => (typeof v === "boolean" ? undefined : mismatch(p, "true or false", v));
/** A count: a whole number, zero or more. */
export const count: Shape = (v, p) =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 ? undefined : mismatch(p, "a whole number >= 0", v);
/** A finite number, zero or more (seconds). */
export const nonNegative: Shape = (v, p) =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? undefined : mismatch(p, "a number >= 0", v);
/** Any JSON value (a tool call's arguments as the model wrote them). */
export const anything: Shape = () => undefined;

export function literal(...values: readonly (string | number)[]): Shape {
  const expected =
    values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
  return (v, p) => (values.includes(v as string | number) ? undefined : mismatch(p, expected, v));
}

export function nullable(shape: Shape): Shape {
  return (v, p) => (v === null ? undefined : shape(v, p));
}

export function optional(shape: Shape): OptionalShape {
  return { optional: shape };
}

export function arrayOf(item: Shape): Shape {
  return (v, p) => {
    if (!Array.isArray(v)) return mismatch(p, "an array", v);
    for (const [i, x] of v.entries()) {
      const bad = item(x, `${p}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  };
}

/** An object with these fields (others are allowed: a newer writer may add some). */
export function object(fields: Readonly<Record<string, Shape | OptionalShape>>): Shape {
  return (v, p) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return mismatch(p, "an object", v);
    for (const [name, field] of Object.entries(fields)) {
      const at = p === "" ? name : `${p}.${name}`;
      const present = Object.hasOwn(v, name) && (v as Record<string, unknown>)[name] !== undefined;
      if (typeof field !== "function") {
        if (!present) continue;
        const bad = field.optional((v as Record<string, unknown>)[name], at);
        if (bad) return bad;
        continue;
      }
      if (!present) return { path: at, problem: "missing" };
      const bad = field((v as Record<string, unknown>)[name], at);
      if (bad) return bad;
    }
    return undefined;
  };
}
