// JSON written the way the study's Python wrote it (json.dumps defaults), because token counts depend on every byte.
import { floatRepr, PyDict, PyFloat, PyInt } from "./values.ts";

/**
 * Python's `json.dumps(value)` with default arguments: `", "` and `": "` separators, non-ASCII escaped as
 * `\uXXXX` (surrogate pairs for astral characters), keys in insertion order (a PyDict's as Python holds them),
 * floats as repr() prints them. Example: pyJsonDumps({a: [1, "é"]}) === '{"a": [1, "\\u00e9"]}'.
 */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "string") return pyString(value);
  if (value instanceof PyFloat) return pyFloat(value.value);
  if (value instanceof PyInt) return String(value.value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(", ")}]`;
  if (value instanceof PyDict) return `{${[...value].map(([k, v]) => `${pyString(k)}: ${pyJsonDumps(v)}`).join(", ")}}`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${pyString(k)}: ${pyJsonDumps(v)}`).join(", ")}}`;
  }
  throw new TypeError(`Object of type ${typeof value} is not JSON serializable`);
}

function pyNumber(n: number): string {
  // A JavaScript number cannot tell 1 from 1.0, so integral ones print as Python ints; the rest as floats.
  // (raw_decode's floats come as PyFloat and keep their ".0".)
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  return pyFloat(n);
}

/** A float as json.dumps writes it: repr(), except NaN and the infinities, which it spells as JavaScript does. */
function pyFloat(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return floatRepr(x);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function pyString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.charCodeAt(i);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    // ensure_ascii: everything outside printable ASCII becomes \uXXXX of its UTF-16 code units.
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}
