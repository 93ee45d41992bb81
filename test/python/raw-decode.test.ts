// rawDecode and jsonLoads must agree with CPython 3.11's JSONDecoder().raw_decode and json.loads: values, end offsets
// and error messages. test/python/fixtures/raw-decode.json was written by CPython itself, by make_raw_decode.py beside it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { rawDecode, JSONDecodeError } from "../../src/python/raw-decode.ts";
import { jsonLoads } from "../../src/python/json-loads.ts";
import { pyJsonDumps } from "../../src/python/json-dumps.ts";

interface Case {
  readonly input: string;
  /** "loads": the case is json.loads's; absent: raw_decode's. */
  readonly via?: "loads";
  readonly value?: string;
  /** Where raw_decode stopped, in code points (a Python str's indices). */
  readonly end?: number;
  readonly error?: string;
}
const cases = JSON.parse(readFileSync(new URL("./fixtures/raw-decode.json", import.meta.url), "utf8")) as Case[];

/** The case's function as the harness has it: the value, and (raw_decode) the end in code points. */
function decode(c: Case): { value: string; end?: number } {
  if (c.via === "loads") return { value: pyJsonDumps(jsonLoads(c.input)) };
  const { value, end } = rawDecode(c.input);
  return { value: pyJsonDumps(value), end: [...c.input.slice(0, end)].length };
}

for (const c of cases) {
  test(`${c.via ?? "raw_decode"}(${JSON.stringify(c.input)})`, () => {
    if (c.error !== undefined) {
      assert.throws(
        () => decode(c),
        (e: unknown) => e instanceof JSONDecodeError && e.message === c.error,
      );
    } else {
      assert.deepEqual(decode(c), c.end === undefined ? { value: c.value } : { value: c.value, end: c.end });
    }
  });
}

test("the fixture covers values and errors, of raw_decode and json.loads", () => {
  assert.ok(cases.filter((c) => c.error).length >= 10);
  assert.ok(cases.filter((c) => !c.error).length >= 6);
  assert.ok(cases.filter((c) => c.via === "loads").length >= 4);
});
