// The constrained call's grammar is sized by the reply's token budget: every call it admits closes within it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { toolCallGrammar } from "../../src/llm/tool-call-grammar.ts";
import { AGENT_TOOLS } from "../../src/designs/index.ts";

/** The longest string each strN admits, read from the rules: N bytes (rest-K ends after at most K more). */
const stringBounds = (gbnf: string) => [...gbnf.matchAll(/ str(\d+)/g)].map((m) => Number(m[1]));
const calls = (gbnf: string) => gbnf.split("\n").filter((line) => line.startsWith("call"));

/** The longest call the grammar admits for a tool, in bytes: its fixed text plus each string at its bound. */
function longestCall(gbnf: string, tool: string): number {
  const line = calls(gbnf).find((l) => l.includes(`\\"${tool}\\"`));
  assert.ok(line, `${tool} is not in the grammar`);
  const literals = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  const strings = stringBounds(line).reduce((n, bytes) => n + bytes + 2, 0);
  return literals.reduce((n, text) => n + Buffer.byteLength(text), 0) + strings + Buffer.byteLength("\n</tool_call>");
}

test("at the study's 200 new tokens: a 134-byte query, or a post and heading of 60 bytes each", () => {
  const gbnf = toolCallGrammar(AGENT_TOOLS, 160, 200);
  assert.equal(calls(gbnf).length, 2);
  assert.deepEqual(stringBounds(calls(gbnf).join("\n")), [134, 60, 60]);
  // Every token is at least one byte, and one more token ends the reply.
  assert.equal(longestCall(gbnf, "search_posts") + 1, 200);
  assert.ok(longestCall(gbnf, "read_section") + 1 <= 200);
});

test("a generous budget keeps maxStringChars as the bound; a short one shortens the strings", () => {
  assert.deepEqual(stringBounds(calls(toolCallGrammar(AGENT_TOOLS, 160, 1000)).join("\n")), [160, 160, 160]);
  for (const budget of [67, 70, 80, 100, 120]) {
    const gbnf = toolCallGrammar(AGENT_TOOLS, 160, budget);
    for (const tool of ["search_posts", "read_section"])
      if (gbnf.includes(`\\"${tool}\\"`)) assert.ok(longestCall(gbnf, tool) + 1 <= budget, `${tool} at ${budget}`);
  }
});

test("a tool whose call cannot close is left out; when none can, the call is an error naming the least budget", () => {
  const search = toolCallGrammar(AGENT_TOOLS, 160, 70);
  assert.equal(calls(search).length, 1);
  assert.match(calls(search)[0]!, /search_posts/);
  assert.throws(() => toolCallGrammar(AGENT_TOOLS, 160, 50), {
    message:
      "no call of search_posts or read_section can close within 50 new tokens (the shortest needs 67): give the " +
      "constrained call more new tokens",
  });
});

test("strings count bytes: an escape is two, a non-ASCII character two to four, \\uXXXX six", () => {
  const gbnf = toolCallGrammar(AGENT_TOOLS, 8, 1000);
  assert.match(gbnf, /^rest0 ::= "\\""$/m);
  assert.match(
    gbnf,
    /^rest7 ::= "\\"" \| unit0 rest6 \| unit1 rest5 \| unit2 rest5 \| unit3 rest4 \| unit4 rest3 \| unit5 rest1$/m,
  );
  assert.match(
    gbnf,
    /^str8 ::= "\\"" \(unit0 rest7 \| unit1 rest6 \| unit2 rest6 \| unit3 rest5 \| unit4 rest4 \| unit5 rest2\)$/m,
  );
});
