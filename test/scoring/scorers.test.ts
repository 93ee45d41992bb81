// The lenient and strict scorers on hand-written answers, one per source-line class and edge.
import { test } from "node:test";
import assert from "node:assert/strict";
import { citesAny, citesRightLenient } from "../../src/scoring/lenient.ts";
import { classifySource, citesRightStrict, citationGrounded } from "../../src/scoring/strict.ts";

const SLUGS = ["flashattention-explained", "kv-cache-inference", "attention-and-softmax"];
const GOLD = "flashattention-explained";

const cases: { answer: string; any: boolean; lenient: boolean; kind: string; posts: string[]; strict: boolean }[] = [
  { answer: "It keeps a running max.", any: false, lenient: false, kind: "none", posts: [], strict: false },
  {
    answer: "See flashattention-explained for details.",
    any: false,
    lenient: true,
    kind: "none",
    posts: [],
    strict: false,
  },
  {
    answer: "Rescale.\nSource: flashattention-explained",
    any: true,
    lenient: true,
    kind: "one-real",
    posts: [GOLD],
    strict: true,
  },
  {
    answer: "Rescale.\nSource: kv-cache-inference",
    any: true,
    lenient: false,
    kind: "one-real",
    posts: ["kv-cache-inference"],
    strict: false,
  },
  {
    answer: "Source: flashattention-explained, kv-cache-inference",
    any: true,
    lenient: true,
    kind: "several",
    posts: [GOLD, "kv-cache-inference"],
    strict: false,
  },
  { answer: "Rescale.\nSource: <post>", any: true, lenient: false, kind: "invented", posts: [], strict: false },
  {
    answer: "Rescale.\nSource: [Blog Post Title]",
    any: true,
    lenient: false,
    kind: "invented",
    posts: [],
    strict: false,
  },
  // Lenient looks after the FIRST "Source:", strict at the text after the LAST one.
  {
    answer: "Source: flashattention-explained\nMore.\nSource: <post>",
    any: true,
    lenient: true,
    kind: "invented",
    posts: [],
    strict: false,
  },
  {
    answer: "Source: <post>\nSource: flashattention-explained",
    any: true,
    lenient: true,
    kind: "one-real",
    posts: [GOLD],
    strict: true,
  },
  // The slug in the body does not count leniently once there is a source line.
  {
    answer: "flashattention-explained says so.\nSource: the blog",
    any: true,
    lenient: false,
    kind: "invented",
    posts: [],
    strict: false,
  },
  { answer: "source: flashattention-explained", any: false, lenient: true, kind: "none", posts: [], strict: false },
  // "Source:" anywhere counts, inside a line too: the study's test is a substring, not a line.
  {
    answer: "It rescales. Source: flashattention-explained",
    any: true,
    lenient: true,
    kind: "one-real",
    posts: [GOLD],
    strict: true,
  },
];

for (const c of cases) {
  test(`scores ${JSON.stringify(c.answer)}`, () => {
    assert.equal(citesAny(c.answer), c.any);
    assert.equal(citesRightLenient(c.answer, GOLD), c.lenient);
    const verdict = classifySource(c.answer, SLUGS);
    assert.equal(verdict.kind, c.kind);
    assert.deepEqual(verdict.posts, c.posts);
    assert.equal(citesRightStrict(verdict, GOLD), c.strict);
  });
}

test("a citation is grounded only when the run's tools showed that post", () => {
  const verdict = classifySource("Source: flashattention-explained", SLUGS);
  assert.equal(citationGrounded(verdict, ["kv-cache-inference", GOLD]), true);
  assert.equal(citationGrounded(verdict, ["kv-cache-inference"]), false);
  assert.equal(citationGrounded(classifySource("Source: a, b", SLUGS), [GOLD]), false);
});
