// The near-duplicate finder on hand-built passages: what counts as shared, and what does not.
import { test } from "node:test";
import assert from "node:assert/strict";
import { findNearDuplicates, paragraphs, shingles, words, type Passage } from "../helpers/near-duplicates.ts";

const copied =
  "PagedAttention borrows virtual memory from operating systems. The cache is divided into fixed-size blocks, " +
  "sixteen tokens each, and each sequence has a block table mapping its logical blocks to physical ones.";

test("words lowercases, drops punctuation and keeps a link's anchor text but not its URL", () => {
  assert.deepEqual(words("See [the KV cache post](/posts/kv-cache-inference), 2x."), [
    "see",
    "the",
    "kv",
    "cache",
    "post",
    "2x",
  ]);
});

test("shingles are the distinct runs of n words", () => {
  assert.deepEqual([...shingles("a b c d a b c", 3)], ["a b c", "b c d", "c d a", "d a b"]);
  assert.equal(shingles("too short", 8).size, 0);
});

test("paragraphs split at blank lines, even blank lines holding spaces", () => {
  assert.deepEqual(paragraphs("one\n\ntwo\nstill two\n  \nthree\n"), ["one", "two\nstill two", "three"]);
});

test("a paragraph copied into a longer one in another post is found, with containment 1", () => {
  const passages: Passage[] = [
    { group: "kv", label: "kv#Paged attention", text: copied },
    {
      group: "serving",
      label: "serving#Blocks",
      text: `Some other opening sentence about servers. ${copied} And more after it.`,
    },
  ];
  const [only, ...rest] = findNearDuplicates(passages);
  assert.deepEqual(rest, []);
  assert.ok(only);
  assert.equal(only.containment, 1);
  assert.ok(only.jaccard < 1 && only.jaccard > 0.5, String(only.jaccard));
  assert.equal(only.a.label, "kv#Paged attention");
});

test("the same text twice in one group is not a pair: only different groups are compared", () => {
  assert.deepEqual(
    findNearDuplicates([
      { group: "kv", label: "a", text: copied },
      { group: "kv", label: "b", text: copied },
    ]),
    [],
  );
});

test("a shared phrase below minShared is not a duplicate, however short the passage", () => {
  // One shared 8-gram: the boilerplate import line two posts' code blocks both start with.
  const imports = "import torch import torch.nn.functional as F";
  const found = findNearDuplicates([
    { group: "a", label: "a", text: imports },
    { group: "b", label: "b", text: imports },
  ]);
  assert.deepEqual(found, []);
  assert.equal(
    findNearDuplicates(
      [
        { group: "a", label: "a", text: imports },
        { group: "b", label: "b", text: imports },
      ],
      { minShared: 1 },
    ).length,
    1,
  );
});

test("a reworded passage that keeps only a few runs of eight words falls under minContainment", () => {
  const filler = (tag: string) => Array.from({ length: 150 }, (_, i) => `${tag}${i}`).join(" ");
  const long = `${copied} ${filler("x")}`;
  const reworded = `${copied.slice(0, 120)} ${filler("y")}`;
  const pair = findNearDuplicates(
    [
      { group: "a", label: "a", text: long },
      { group: "b", label: "b", text: reworded },
    ],
    { minContainment: 0 },
  );
  assert.equal(pair.length, 1);
  assert.ok(pair[0]!.containment < 0.1, String(pair[0]!.containment));
  assert.deepEqual(
    findNearDuplicates([
      { group: "a", label: "a", text: long },
      { group: "b", label: "b", text: reworded },
    ]),
    [],
  );
});
