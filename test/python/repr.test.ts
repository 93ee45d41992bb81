// pyRepr must match Python's repr() (every expected string below was printed by CPython 3.11).
import { test } from "node:test";
import assert from "node:assert/strict";
import { floatRepr, PyDict, pyRepr, pyTypeName } from "../../src/python/index.ts";
import { PyFloat } from "../../src/python/values.ts";

test("strings: Python's choice of quotes and its escapes", () => {
  assert.equal(pyRepr("plain"), "'plain'");
  assert.equal(pyRepr("it's"), `"it's"`);
  assert.equal(pyRepr('say "hi"'), `'say "hi"'`);
  assert.equal(pyRepr(`both ' and "`), `'both \\' and "'`);
  assert.equal(pyRepr("tab\tnl\nret\r back\\slash"), "'tab\\tnl\\nret\\r back\\\\slash'");
});

test("strings: non-printable characters as \\x, \\u or \\U; printable non-ASCII kept", () => {
  assert.equal(pyRepr("\u0000\u001c\u001f\u007f\u0085\u00a0"), "'\\x00\\x1c\\x1f\\x7f\\x85\\xa0'");
  assert.equal(pyRepr("café 日本"), "'café 日本'");
  assert.equal(pyRepr("\u200b\u2028\u3000\ufeff"), "'\\u200b\\u2028\\u3000\\ufeff'");
  assert.equal(pyRepr("😀\u{e0001}"), "'😀\\U000e0001'");
  assert.equal(pyRepr("\ud800"), "'\\ud800'");
});

test("strings: printable as in CPython 3.11's Unicode 14.0, not as in Node's newer tables", () => {
  // U+1F6DF (ring buoy) came in 14.0; U+1F6DC (wireless), U+1FA75 and U+0C5C came later: unassigned there.
  assert.equal(pyRepr("\u{1f6df}"), "'\u{1f6df}'");
  assert.equal(pyRepr("\u{1f6dc}\u{1fa75}x\u0c5c"), "'\\U0001f6dc\\U0001fa75x\\u0c5c'");
  assert.equal(pyRepr("a\u00adb \u{31350}"), "'a\\xadb \\U00031350'");
});

test("floats, including integral ones that JavaScript numbers cannot tell from ints", () => {
  const floats = [1, 1e16, 1e-5, -0, NaN, Infinity, 2.5].map((x) => pyRepr(new PyFloat(x)));
  assert.deepEqual(floats, ["1.0", "1e+16", "1e-05", "-0.0", "nan", "inf", "2.5"]);
  assert.equal(floatRepr(123456789012500), "123456789012500.0");
});

test("containers and the other scalars", () => {
  const dict = new PyDict([["k", new PyFloat(1)]]);
  assert.equal(pyRepr([1, "a", null, true, dict]), "[1, 'a', None, True, {'k': 1.0}]");
  assert.deepEqual([null, new PyFloat(1), 1, "s", true, [], dict].map(pyTypeName), [
    "NoneType",
    "float",
    "int",
    "str",
    "bool",
    "list",
    "dict",
  ]);
});
