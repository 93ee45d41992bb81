// Python's repr() and type names of decoded JSON values, for error messages worded as CPython words them.
import { UNPRINTABLE } from "./unprintable.ts";
import { floatRepr, PyDict, PyFloat, PyInt } from "./values.ts";

/** type(value).__name__ of a value decoded from JSON. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (value instanceof PyFloat) return "float";
  if (value instanceof PyInt) return "int";
  if (Array.isArray(value)) return "list";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return "dict";
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** Python's repr() of a str: quotes chosen as Python chooses them, non-printable characters as \x, \u or \U. */
function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (SHORT_ESCAPES[ch] !== undefined) out += SHORT_ESCAPES[ch];
    else if (ch === quote) out += `\\${ch}`;
    else if (UNPRINTABLE.test(ch)) {
      const [prefix, width] = code < 0x100 ? ["\\x", 2] : code < 0x10000 ? ["\\u", 4] : ["\\U", 8];
      out += prefix + code.toString(16).padStart(width, "0");
    } else out += ch;
  }
  return out + quote;
}

/** Python's repr() of a value decoded from JSON. */
export function pyRepr(value: unknown): string {
  if (typeof value === "string") return strRepr(value);
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (value instanceof PyInt) return String(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (value instanceof PyDict) return `{${[...value].map(([k, v]) => `${strRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  return `{${Object.entries(value as object)
    .map(([k, v]) => `${strRepr(k)}: ${pyRepr(v)}`)
    .join(", ")}}`;
}
