// The answer-overlap check on hand-built sections: a section saying the gold section's content again is flagged,
// an unrelated one is not, and neither is one of the gold section's own post or one the question points at less.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Question, Section } from "../../src/corpus/index.ts";
import { answerOverlaps, formatAnswerOverlaps, SectionOverlap } from "../../src/corpus/answer-overlap.ts";

const STOP = new Set([
  "a",
  "an",
  "and",
  "the",
  "of",
  "to",
  "in",
  "is",
  "it",
  "by",
  "for",
  "on",
  "at",
  "as",
  "so",
  "its",
]);
/** A stand-in for BM25's analyzer: lowercased words, a few stop words out, no stemming. */
const analyze = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w));

const section = (post: string, heading: string, text: string): Section => ({ post, heading, level: 2, text });

const paging =
  "The cache is divided into fixed-size blocks drawn from a shared pool. Each sequence keeps a block table mapping " +
  "its logical positions to physical blocks, so waste is bounded by one partly filled block per sequence.";
const blog: Section[] = [
  section("kv-cache", "Paged attention", paging),
  section("kv-cache", "Block tables and sharing", "Block tables let sequences share physical blocks of a prompt."),
  section(
    "serving",
    "Paged memory",
    "A shared pool of fixed-size blocks holds the cache; a block table maps each sequence's logical positions to " +
      "physical blocks, and the waste per sequence is at most one partly filled block.",
  ),
  section("serving", "Little's law", "Arrival rate times latency gives the requests in flight on average."),
  section("tokenizers", "Byte-pair merges", "Merges join the most frequent pair of symbols, one rule at a time."),
  section("tokenizers", "Special tokens", "Special tokens mark turns and must not be parsed from user text."),
  section("sampling", "Top-p", "The nucleus keeps the smallest set of tokens whose probability reaches p."),
  section(
    "memory",
    "Blocks of notes",
    "Notes are kept in pages, one file per session, with a table of contents at the front.",
  ),
];

const onePost = (question: string): Question => ({ id: "q1", question, post: "kv-cache", heading: "Paged attention" });

test("a section of another post saying the gold section again is flagged; an unrelated one is not", () => {
  const [result] = answerOverlaps(
    blog,
    [onePost("How does a block table keep waste to one partly filled block per sequence?")],
    analyze,
  );
  assert.ok(result);
  assert.deepEqual(result.gold, { post: "kv-cache", heading: "Paged attention" });
  assert.deepEqual(
    result.flags.map((f) => `${f.section.post}#${f.section.heading}`),
    ["serving#Paged memory"],
  );
  const [flag] = result.flags;
  assert.ok(flag && flag.overlap > 0.5 && flag.overlap <= 1, `overlap ${flag?.overlap}`);
  assert.ok(flag.questionTermsHere >= flag.questionTermsInGold);
});

test("the gold section's own post is never flagged, however close its sections are", () => {
  const twin = [...blog, section("kv-cache", "Paging again", paging)];
  const [result] = answerOverlaps(twin, [onePost("How are the blocks of a sequence mapped?")], analyze);
  assert.ok(result?.flags.every((f) => f.section.post !== "kv-cache"));
  assert.ok(result?.flags.some((f) => f.section.post === "serving"));
});

test("a close section holding fewer of the question's words than the gold section is not flagged", () => {
  // "partly filled" and "waste" are in both; "logical" and "positions" only in the gold section and the twin.
  const far = blog.map((s) =>
    s.heading === "Paged memory" ? { ...s, text: s.text.replace("logical positions", "slots") } : s,
  );
  const question = onePost("Which logical positions does the block table map?");
  const [near] = answerOverlaps(blog, [question], analyze);
  const [away] = answerOverlaps(far, [question], analyze);
  assert.equal(near?.flags.length, 1);
  assert.equal(away?.flags.length, 0);
});

test("the threshold decides: above the pair's overlap nothing is flagged", () => {
  const question = [onePost("How does a block table keep waste to one partly filled block per sequence?")];
  const overlap = answerOverlaps(blog, question, analyze)[0]!.flags[0]!.overlap;
  assert.equal(answerOverlaps(blog, question, analyze, { threshold: overlap + 0.01 })[0]?.flags.length, 0);
  assert.equal(answerOverlaps(blog, question, analyze, { threshold: overlap - 0.01 })[0]?.flags.length, 1);
});

test("a two-post question is checked half by half, and the other half's post can answer a half", () => {
  const question: Question = {
    id: "t1",
    question: "How does a block table bound waste per sequence, and what does arrival rate times latency give?",
    posts: ["kv-cache", "serving"],
    headings: ["Paged attention", "Little's law"],
  };
  const [first, second] = answerOverlaps(blog, [question], analyze);
  assert.deepEqual(first?.gold, { post: "kv-cache", heading: "Paged attention" });
  assert.deepEqual(
    first?.flags.map((f) => f.section.heading),
    ["Paged memory"],
  );
  assert.deepEqual(second?.gold, { post: "serving", heading: "Little's law" });
  assert.deepEqual(second?.flags, []);
});

test("a two-post half with a detail is checked on the detail's words: one only its section holds passes", () => {
  // The gold section gains a detail its twin in the serving post lacks; the paging words are in both.
  const detailed = blog.map((s) =>
    s.heading === "Paged attention" ? { ...s, text: `${s.text} Sixteen tokens fill each block by default.` } : s,
  );
  const question = (first: string): Question => ({
    id: "t2",
    question: "What does the block table do, and what does arrival rate times latency give?",
    posts: ["kv-cache", "serving"],
    headings: ["Paged attention", "Little's law"],
    details: [first, "Requests in flight on average"],
  });
  const flags = (q: Question) => answerOverlaps(detailed, [q], analyze).map((o) => o.flags.length);
  assert.deepEqual(flags(question("It maps logical positions to physical blocks")), [1, 0]);
  assert.deepEqual(flags(question("Sixteen tokens fill each block by default")), [0, 0]);
});

test("overlap is symmetric, 1 for a section with itself, and 0 for sections sharing no weighted term", () => {
  const model = new SectionOverlap(blog, analyze);
  const [paged, memory, law] = [0, 2, 3];
  assert.equal(model.overlap(paged, memory), model.overlap(memory, paged));
  assert.ok(Math.abs(model.overlap(paged, paged) - 1) < 1e-12);
  assert.equal(model.overlap(paged, law), 0);
  assert.equal(model.indexOf({ post: "serving", heading: "Paged memory" }), memory);
  assert.equal(model.indexOf({ post: "serving", heading: "Nowhere" }), undefined);
});

test("math, URLs and link targets are not vocabulary: a shared link target alone is no overlap", () => {
  const linked = [
    section("a", "One", "See [the notes](/posts/shared-target) and $\\frac{x}{y}$ at https://example.com/shared."),
    section("b", "Two", "Read [other words](/posts/shared-target) and $\\frac{u}{v}$ at https://example.com/shared."),
    section("c", "Three", "Unrelated prose about kitchens."),
  ];
  assert.equal(new SectionOverlap(linked, analyze).overlap(0, 1), 0);
});

test("the report names each flagged question's section and its flags; unflagged ones only count", () => {
  const results = answerOverlaps(
    blog,
    [
      onePost("How does a block table keep waste to one partly filled block per sequence?"),
      { id: "q2", question: "Why must special tokens not be parsed?", post: "tokenizers", heading: "Special tokens" },
    ],
    analyze,
  );
  const report = formatAnswerOverlaps("q.jsonl", results, 0.18).split("\n");
  assert.match(report[0]!, /^q\.jsonl: answer overlap \(threshold 0\.18\): 1 of 2 questions/);
  assert.equal(report[1], "q1 kv-cache#Paged attention");
  assert.match(
    report[2]!,
    /^ {2}0\.\d\d serving#Paged memory \(question words: \d+\/\d+ there, \d+\/\d+ in its section\)$/,
  );
  assert.equal(report.length, 3);
});
