// Python's json.JSONDecoder().raw_decode: parse the first JSON value of a string, ignore what follows.
// The loop parses tool calls with it, and its error messages become tool results the model reads,
// so the messages copy CPython's ("Expecting value: line 1 column 1 (char 0)").
// Objects decode to PyDict, floats to PyFloat and big ints to PyInt, so that key order, "__proto__" keys, 1.0 and
// every digit survive as in Python.
import { PyDict, PyFloat, PyInt } from "./values.ts";

/** CPython's JSONDecodeError. `pos` indexes the JavaScript string `doc` (UTF-16 units), so callers can slice it. */
export class JSONDecodeError extends Error {
  override readonly name = "JSONDecodeError";
  constructor(
    readonly reason: string,
    readonly doc: string,
    readonly pos: number,
  ) {
    super(`${reason}: ${pyPosition(doc, pos)}`);
  }
}

/**
 * "line 2 column 3 (char 9)" for index `pos` of `doc`, counted as CPython counts a str: in code points, so a
 * character beyond the BMP (an emoji) is one, not two UTF-16 units.
 */
function pyPosition(doc: string, pos: number): string {
  const before = [...doc.slice(0, pos)];
  const line = before.filter((ch) => ch === "\n").length + 1;
  // str.rfind's -1 when no newline precedes makes the first line's columns start at 1.
  const column = before.length - before.lastIndexOf("\n");
  return `line ${line} column ${column} (char ${before.length})`;
}

/**
 * Returns the first JSON value in `doc` (which must start at index 0, as raw_decode requires) and where it ended,
 * as an index into `doc` (UTF-16 units, for slicing; CPython's `end` counts code points).
 */
export function rawDecode(doc: string): { value: unknown; end: number } {
  const parser = new Parser(doc);
  const value = parser.value(0);
  return { value, end: parser.pos };
}

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

class Parser {
  pos = 0;
  constructor(private readonly doc: string) {}

  private fail(reason: string, at: number): never {
    throw new JSONDecodeError(reason, this.doc, at);
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.pos;
    WHITESPACE.exec(this.doc);
    this.pos = WHITESPACE.lastIndex;
  }

  value(at: number): unknown {
    this.pos = at;
    const ch = this.doc[at];
    if (ch === '"') return this.string(at + 1);
    if (ch === "{") return this.object(at + 1);
    if (ch === "[") return this.array(at + 1);
    for (const [word, value] of LITERALS) {
      if (this.doc.startsWith(word, at)) {
        this.pos = at + word.length;
        return value;
      }
    }
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(this.doc);
    if (match) {
      this.pos = NUMBER.lastIndex;
      // A fraction or an exponent makes a Python float, even when its value is integral (1.0, 1e2).
      const isFloat = match[1] !== undefined || match[2] !== undefined;
      if (isFloat) return new PyFloat(Number(match[0]));
      // An int beyond 2^53 keeps every digit, as Python's ints do.
      const int = Number(match[0]);
      return Number.isSafeInteger(int) ? int : new PyInt(BigInt(match[0]));
    }
    return this.fail("Expecting value", at);
  }

  private string(start: number): string {
    let out = "";
    let i = start;
    for (;;) {
      const ch = this.doc[i];
      if (ch === undefined) this.fail("Unterminated string starting at", start - 1);
      if (ch === '"') break;
      if (ch === "\\") {
        const esc = this.doc[i + 1];
        if (esc === "u") {
          const hex = this.doc.slice(i + 2, i + 6);
          // CPython's C scanner wants a character after the four digits, and calls an escape that ends the text bad.
          const ends = i + 6 >= this.doc.length;
          if (ends || !/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("Invalid \\uXXXX escape", i + 1);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        const decoded = esc === undefined ? undefined : ESCAPES[esc];
        if (decoded === undefined)
          this.fail(
            esc === undefined ? "Unterminated string starting at" : "Invalid \\escape",
            esc === undefined ? start - 1 : i,
          );
        out += decoded;
        i += 2;
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) this.fail("Invalid control character at", i);
      out += ch;
      i++;
    }
    this.pos = i + 1;
    return out;
  }

  private object(start: number): PyDict {
    const out = new PyDict();
    this.pos = start;
    this.skipWhitespace();
    if (this.doc[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      if (this.doc[this.pos] !== '"') this.fail("Expecting property name enclosed in double quotes", this.pos);
      const key = this.string(this.pos + 1);
      this.skipWhitespace();
      if (this.doc[this.pos] !== ":") this.fail("Expecting ':' delimiter", this.pos);
      this.pos++;
      this.skipWhitespace();
      // A repeated key keeps its first place and takes the last value, as a Python dict does.
      out.set(key, this.value(this.pos));
      this.skipWhitespace();
      const next = this.doc[this.pos];
      this.pos++;
      if (next === "}") return out;
      if (next !== ",") this.fail("Expecting ',' delimiter", this.pos - 1);
      this.skipWhitespace();
    }
  }

  private array(start: number): unknown[] {
    const out: unknown[] = [];
    this.pos = start;
    this.skipWhitespace();
    if (this.doc[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(this.pos));
      this.skipWhitespace();
      const next = this.doc[this.pos];
      this.pos++;
      if (next === "]") return out;
      if (next !== ",") this.fail("Expecting ',' delimiter", this.pos - 1);
      this.skipWhitespace();
    }
  }
}

// Python's decoder accepts these non-standard constants too.
const LITERALS: ReadonlyArray<readonly [string, unknown]> = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", new PyFloat(NaN)],
  ["Infinity", new PyFloat(Infinity)],
  ["-Infinity", new PyFloat(-Infinity)],
];
