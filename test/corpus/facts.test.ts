// The fact matcher on hand-written answers: case, spacing, edge punctuation, numbers as digits and as words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { factsStated } from "../../src/corpus/index.ts";
import { normalizeFactText } from "../../src/corpus/facts.ts";

test("case, whitespace, markdown marks and edge punctuation do not matter", () => {
  const answer = "It keeps a **Running   Maximum**\nand a `running sum`.";
  assert.deepEqual(factsStated(answer, [["running maximum."], ["Running Sum"], ["online softmax"]]), [
    true,
    true,
    false,
  ]);
});

test("numbers match as digits and as words, with or without thousands commas", () => {
  assert.equal(normalizeFactText("One thousand and twenty-five tokens"), "1025 tokens");
  assert.equal(normalizeFactText("1,000 passages, two hundred words, 40 percent"), "1000 passages, 200 words, 40%");
  assert.deepEqual(factsStated("about one thousand passages in two steps", [["1000 passages"], ["2 steps"]]), [
    true,
    true,
  ]);
  assert.deepEqual(factsStated("1,000 passages", [["one thousand passages"]]), [true]);
  assert.deepEqual(factsStated("a thousand passages", [["1000 passages"]]), [false]);
});

test("a phrase matches whole words only, and a number never inside a longer one", () => {
  const facts = [["2"], ["cache"], ["60"]];
  assert.deepEqual(factsStated("k = 12, the caches, 60.5", facts), [false, false, false]);
  assert.deepEqual(factsStated("k = 60, two caches, the cache.", facts), [true, true, true]);
});

test("a symbol at a phrase's edge is part of it: 90% is not stated by a bare 90", () => {
  assert.deepEqual(factsStated("90 tokens, then 90%.", [["90%"], ["tokens,"]]), [true, true]);
  assert.deepEqual(factsStated("90 tokens", [["90%"]]), [false]);
});

test("any one phrasing of a fact will do; an empty phrasing matches nothing", () => {
  assert.deepEqual(factsStated("the key-value cache", [["KV cache", "key value cache"], ["..."]]), [true, false]);
});

test("facts match the plain text of markdown: _emphasis_, **strong**, code and links reduce to their words", () => {
  // A true fact against the post's "_more_ work" failed while only * and backticks were dropped.
  assert.deepEqual(factsStated("It takes _more_ work.", [["more work"]]), [true]);
  assert.deepEqual(
    factsStated("See [the KV cache](/posts/kv-cache) and __both__ `k`.", [["the kv cache and both k"]]),
    [true],
  );
  assert.deepEqual(factsStated("snake_case_name stays", [["snake_case_name"]]), [true]);
  assert.deepEqual(factsStated("first paragraph\n\nsecond", [["paragraph second"]]), [true]);
});
