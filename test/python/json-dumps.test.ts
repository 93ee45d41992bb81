// pyJsonDumps must match Python's json.dumps byte for byte (expected strings below were produced by CPython 3.11).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pyJsonDumps } from "../../src/python/json-dumps.ts";

test("separators are ', ' and ': ' as in json.dumps", () => {
  assert.equal(
    pyJsonDumps({ name: "search_posts", arguments: { query: "online softmax" } }),
    '{"name": "search_posts", "arguments": {"query": "online softmax"}}',
  );
  assert.equal(pyJsonDumps([1, 2, [3]]), "[1, 2, [3]]");
  assert.equal(pyJsonDumps({}), "{}");
  assert.equal(pyJsonDumps([]), "[]");
});

test("non-ASCII is escaped as \\uXXXX, astral characters as surrogate pairs", () => {
  assert.equal(pyJsonDumps("café"), '"caf\\u00e9"');
  assert.equal(pyJsonDumps("😀"), '"\\ud83d\\ude00"');
  assert.equal(pyJsonDumps("a\u007fb"), '"a\\u007fb"');
});

test("control characters and quotes escape like Python", () => {
  assert.equal(pyJsonDumps('say "hi"\n\t\\'), '"say \\"hi\\"\\n\\t\\\\"');
  assert.equal(pyJsonDumps("\u0001"), '"\\u0001"');
  assert.equal(pyJsonDumps("</script>"), '"</script>"');
});

test("numbers, booleans and null print as Python prints them", () => {
  assert.equal(
    pyJsonDumps([true, false, null, 0, -3, 2.5, 1e-7, 1e21, NaN]),
    "[true, false, null, 0, -3, 2.5, 1e-07, 1e+21, NaN]",
  );
});

test("non-integral numbers switch to exponents where Python's repr does, not where JavaScript's does", () => {
  assert.equal(pyJsonDumps([0.00001, 1.5e17, 0.1, 123456.789]), "[1e-05, 1.5e+17, 0.1, 123456.789]");
});
