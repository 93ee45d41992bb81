// rawDecode must agree with CPython 3.11's JSONDecoder().raw_decode: values, end offsets and error messages.
// test/python/fixtures/raw-decode.json was written by CPython itself, by make_raw_decode.py beside it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { rawDecode, JSONDecodeError } from "../../src/python/raw-decode.ts";
import { pyJsonDumps } from "../../src/python/json-dumps.ts";

interface Case {
  readonly input: string;
  readonly value?: string;
  readonly end?: number;
  readonly error?: string;
}
const cases = JSON.parse(readFileSync(new URL("./fixtures/raw-decode.json", import.meta.url), "utf8")) as Case[];

for (const c of cases) {
  test(`raw_decode(${JSON.stringify(c.input)})`, () => {
    if (c.error !== undefined) {
      assert.throws(
        () => rawDecode(c.input),
        (e: unknown) => e instanceof JSONDecodeError && e.message === c.error,
      );
    } else {
      const { value, end } = rawDecode(c.input);
      assert.equal(pyJsonDumps(value), c.value);
      assert.equal(end, c.end);
    }
  });
}

test("the fixture covers values and errors", () => {
  assert.ok(cases.filter((c) => c.error).length >= 10);
  assert.ok(cases.filter((c) => !c.error).length >= 6);
});
