// Type helpers for records typed by their schemas: deep readonly, and a check that a schema mirrors a type.

/** T with every field and array readonly, as the records that stages hand each other are. */
export type Immutable<T> = T extends object ? { readonly [K in keyof T]: Immutable<T[K]> } : T;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Compiles only when A and B are assignable both ways and have the same fields (an optional field one lacks would
 * not stop assignment). Called beside a schema that mirrors a type defined elsewhere
 * (`typesAgree<Immutable<z.output<typeof schema>>, CallRecord>(true)`), so tsc fails when they drift.
 */
export function typesAgree<A, B>(_agree: Same<A, B> extends true ? Same<keyof A, keyof B> : false): void {}
