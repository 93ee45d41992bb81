// The words the transcript browser shows for each source-line class.
import { test } from "node:test";
import assert from "node:assert/strict";
import { classifySource, explainSource } from "../../src/scoring/index.ts";

const SLUGS = ["kv-cache-inference", "flashattention-explained"];
const why = (answer: string, seen: string[] = []) =>
  explainSource(classifySource(answer, SLUGS), "kv-cache-inference", seen);

test("every class says why", () => {
  assert.equal(why("No line."), 'none: the answer has no "Source:"');
  assert.equal(
    why("Source: [Blog Post Title]"),
    'placeholder or invented: the text after the last "Source:" ("[Blog Post Title]") names no post of the blog',
  );
  assert.equal(
    why("Source: kv-cache-inference, flashattention-explained"),
    "several posts: the source line names 2 (kv-cache-inference, flashattention-explained); strict scoring wants exactly one",
  );
  assert.equal(
    why("Source: kv-cache-inference", ["kv-cache-inference"]),
    "one real post: kv-cache-inference, the right one; the run's tools had shown it",
  );
  assert.equal(
    why("Source: kv-cache-inference"),
    "one real post: kv-cache-inference, the right one; the run's tools never showed it",
  );
  assert.equal(
    why("Source: flashattention-explained", ["kv-cache-inference"]),
    "one real post: flashattention-explained, not the right one (kv-cache-inference); the run's tools never showed it",
  );
  assert.match(why(`Source: ${"x".repeat(200)}`), /"x{77}\.\.\."/);
});
