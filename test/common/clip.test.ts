// Error lines quote users' files and models' replies: clipped, they stay readable and say what was cut.
import { test } from "node:test";
import assert from "node:assert/strict";
import { clipLines, clipText } from "../../src/common/index.ts";

test("a value past the bound is cut there and says how many characters were left out", () => {
  assert.equal(clipText("abcdef", 6), "abcdef");
  assert.equal(clipText("abcdefgh", 3), "abc… (5 more characters)");
  assert.equal(clipText("x".repeat(12_003), 3), "xxx… (12,000 more characters)");
});

test("each line of a message is clipped alike, so a list of problems keeps every problem", () => {
  assert.equal(
    clipLines(`short\n${"y".repeat(10)}\nend`, 4),
    "shor… (1 more character)\nyyyy… (6 more characters)\nend",
  );
});
