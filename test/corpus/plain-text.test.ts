// markdownPlainText's shortcut for a plain line gives what the markdown parse gives for the same words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { markdownPlainText } from "../../src/corpus/plain-text.ts";

// "s\n" is the same paragraph as "s" to CommonMark, but its newline keeps it off the shortcut: the parse decides it.
const parsed = (line: string) => markdownPlainText(`${line}\n`);

test("lines the shortcut takes read as the parse reads them", () => {
  const edgeCases = [
    "a 1. b",
    "a - b",
    "a -- b",
    "note: b",
    "www.example.com",
    "see http://example.com/a-b.",
    "a (b) c",
    "e.g.",
    'it\'s "quoted"',
    "90% of 1,000",
    "a/b/c",
    "Schöne Grüße",
    "a   b",
    // One for each character the shortcut leaves to the parse (most of which the parse reads as markup).
    "a *b* c",
    "a _b_ c",
    "a `b` c",
    "a [b](c) d",
    "a ![b](c) d",
    "a &amp; b",
    "a \\* b",
    "a ~~b~~ c",
    "a <b>c</b> d",
    "a $b$ c",
    "a\tb",
    "1. b",
    "1) b",
    "- b",
    "+ b",
    "# b",
    "> b",
    "| a | b |",
  ];
  for (const line of edgeCases) assert.equal(markdownPlainText(line), parsed(line), line);

  // Seeded random lines over the shortcut's alphabet and a few characters it must leave to the parse.
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  const alphabet = "abcdeXYZé0189  .,;:?'\"()%/-*_`[]!<>&\\#~|+=$";
  let plainLines = 0;
  for (let i = 0; i < 800; i++) {
    const length = 1 + (next() % 14);
    let line = "abcXYZé"[next() % 7]!;
    for (let j = 1; j < length; j++) line += alphabet[next() % alphabet.length];
    if (/^[\p{L}\p{N} .,;:?'"()%/-]*$/u.test(line) && !line.endsWith(" ")) plainLines++;
    assert.equal(markdownPlainText(line), parsed(line), JSON.stringify(line));
  }
  assert.ok(plainLines > 150, `${plainLines} lines took the shortcut`);
});

test("markdown that looks plain at a glance is still parsed", () => {
  assert.equal(markdownPlainText("_more_ work"), "more work\n");
  assert.equal(markdownPlainText("1. first"), "first\n\n");
  assert.equal(markdownPlainText("key  "), "key\n");
});
