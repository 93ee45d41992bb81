// Python's json.loads: one JSON value, whitespace allowed around it, anything else after it an error.
// An API's tool call carries its arguments as a JSON string, which a Python client reads with json.loads.
import { JSONDecodeError, rawDecode } from "./raw-decode.ts";

const WHITESPACE = /[ \t\n\r]*/y;

/** `json.loads(s)`: the value, or CPython's JSONDecodeError ("Extra data: line 1 column 5 (char 4)"). */
export function jsonLoads(s: string): unknown {
  // json.loads refuses a str that starts with a byte order mark before it parses anything.
  if (s.startsWith("\ufeff")) throw new JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", s, 0);
  const start = skip(s, 0);
  let decoded: { value: unknown; end: number };
  try {
    decoded = rawDecode(s.slice(start));
  } catch (error) {
    // Positions count from the string's start, as CPython's raw_decode(s, idx) reports them.
    if (error instanceof JSONDecodeError) throw new JSONDecodeError(error.reason, s, error.pos + start);
    throw error;
  }
  const end = skip(s, start + decoded.end);
  if (end !== s.length) throw new JSONDecodeError("Extra data", s, end);
  return decoded.value;
}

function skip(s: string, from: number): number {
  WHITESPACE.lastIndex = from;
  WHITESPACE.test(s);
  return WHITESPACE.lastIndex;
}
