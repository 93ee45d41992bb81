// Prompt wordings: the default is the study's texts byte for byte; a file's entries override by name and are checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AGENT_SYSTEM_PROMPT,
  agentSystemPrompt,
  WORKFLOW_SYSTEM_PROMPT,
  workflowUserPrompt,
} from "../../src/designs/prompts.ts";
import { AGENT_TOOLS } from "../../src/designs/tools.ts";
import {
  agentSystemFor,
  agentToolsFor,
  DEFAULT_WORDING,
  parseWordings,
  workflowSystemFor,
  workflowUserFor,
} from "../../src/designs/wording.ts";
import { BUILTIN_WORDINGS } from "../../src/designs/builtin-wordings.ts";
import { UserError } from "../../src/common/errors.ts";

const hits = [{ post: "p", heading: "h", snippet: "a {question} in a snippet, $& too" }];

test("the default wording sends exactly the study's texts", () => {
  assert.equal(agentSystemFor(DEFAULT_WORDING, "agent"), AGENT_SYSTEM_PROMPT);
  assert.equal(agentSystemFor(DEFAULT_WORDING, "agent-search-first"), agentSystemPrompt("agent-search-first"));
  assert.equal(agentSystemFor(DEFAULT_WORDING, "agent-forced"), agentSystemPrompt("agent-forced"));
  assert.equal(workflowSystemFor(DEFAULT_WORDING), WORKFLOW_SYSTEM_PROMPT);
  assert.equal(workflowUserFor(DEFAULT_WORDING, "Why $1?", hits), workflowUserPrompt("Why $1?", hits));
  assert.equal(agentToolsFor(DEFAULT_WORDING), AGENT_TOOLS);
});

test("a file's wording overrides the fields it names and keeps the others; placeholders are filled once", () => {
  const [terse] = parseWordings(
    [{ id: "terse", system: "Answer with the tools.", tool_descriptions: { search_posts: "Find posts." } }],
    "w.json",
  );
  assert.equal(
    agentSystemFor(terse!, "agent-search-first"),
    `Answer with the tools. ${DEFAULT_WORDING.source_instruction} ${DEFAULT_WORDING.search_first}`,
  );
  assert.equal(workflowSystemFor(terse!), WORKFLOW_SYSTEM_PROMPT);
  assert.deepEqual(
    agentToolsFor(terse!).map((t) => t.function.description),
    ["Find posts.", "Read one section of a blog post."],
  );
  assert.deepEqual(AGENT_TOOLS[0]!.function.description, "Search the blog.", "the study's schemas are untouched");
  const [layout] = parseWordings([{ id: "q", workflow_layout: "Q: {question}\nR: {results}" }], "w.json");
  assert.equal(
    workflowUserFor(layout!, "Why?", hits),
    'Q: Why?\nR: [{"post": "p", "heading": "h", "snippet": "a {question} in a snippet, $& too"}]',
  );
});

test("a bad wordings file is refused with the field that is wrong", () => {
  const refused = (value: unknown, pattern: RegExp) =>
    assert.throws(
      () => parseWordings(value, "w.json"),
      (e: unknown) => e instanceof UserError && pattern.test(e.message),
    );
  refused({ id: "x" }, /w\.json: expected a JSON list of wordings/);
  refused([{ id: "x", sytem: "typo" }], /wording 0: unknown field "sytem"/);
  refused([{ id: "x", tool_descriptions: { search: "s" } }], /wording 0: unknown field "search"/);
  refused([{ system: "s" }], /field 0\.id: expected/);
  refused([{ id: "x" }, { id: "x" }], /wording 1: the id "x" is used twice/);
  refused(
    [{ id: "x", workflow_layout: "no placeholders" }],
    /field 0\.workflow_layout: expected a text with \{results\} and \{question\}/,
  );
  refused([{ id: "default", system: "Other." }], /the id "default" names the study's wording/);
  assert.equal(parseWordings([{ id: "default" }], "w.json")[0], DEFAULT_WORDING);
});

test("the built-in set holds the default and four others, each changing every text but keeping the Source line", () => {
  assert.equal(BUILTIN_WORDINGS.length, 5);
  assert.equal(BUILTIN_WORDINGS[0], DEFAULT_WORDING);
  assert.equal(new Set(BUILTIN_WORDINGS.map((w) => w.id)).size, 5);
  // Each passes the file's own checks, so the built-in set is one a user could have written.
  assert.deepEqual(parseWordings(JSON.parse(JSON.stringify(BUILTIN_WORDINGS)), "builtin"), BUILTIN_WORDINGS);
  for (const w of BUILTIN_WORDINGS) {
    assert.match(w.source_instruction, /'Source: <post>'/, w.id);
    assert.match(w.source_instruction, /slug/, w.id);
    assert.match(w.search_first, /search_posts/, w.id);
  }
  for (const w of BUILTIN_WORDINGS.slice(1))
    assert.notEqual(agentSystemFor(w, "agent-search-first"), agentSystemFor(DEFAULT_WORDING, "agent-search-first"));
});
