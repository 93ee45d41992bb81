// Each dialect's parser on replies written in its family's documented format, and on broken ones, with the calls
// the loop takes (the text of each, then what binding it to the study's tools gives; errors as CPython 3.11 words them).
import { test } from "node:test";
import assert from "node:assert/strict";
import { DIALECTS, looksForeign, TOOL_FORMATS, type ToolFormat } from "../../src/toolcalls/index.ts";
import { mistralCallId } from "../../src/toolcalls/mistral.ts";
import { binderOf } from "../../src/designs/tools.ts";
import { toPlainJson } from "../../src/python/index.ts";

interface Case {
  readonly what: string;
  readonly reply: string;
  /** Each call: its text, then the tool it binds to and its arguments, or the error the model reads. */
  readonly calls: readonly (readonly [string, string | null, unknown])[];
}

const S = '{"name": "search_posts", "arguments": {"query": "kv cache"}}';
const R = '{"name": "read_section", "arguments": {"post": "a", "heading": "b"}}';
const LS = '{"name": "search_posts", "parameters": {"query": "kv cache"}}';
const search = ["search_posts", { query: "kv cache" }] as const;
const read = ["read_section", { post: "a", heading: "b" }] as const;

const CASES: Readonly<Record<ToolFormat, readonly Case[]>> = {
  hermes: [
    { what: "one call", reply: `<tool_call>\n${S}\n</tool_call>`, calls: [[S, ...search]] },
    {
      what: "two calls",
      reply: `<tool_call>\n${S}\n</tool_call>\n<tool_call>\n${R}\n</tool_call>`,
      calls: [
        [S, ...search],
        [R, ...read],
      ],
    },
    { what: "text before the call", reply: `Let me look.\n<tool_call>\n${S}\n</tool_call>`, calls: [[S, ...search]] },
    { what: "unclosed tag: no call", reply: `<tool_call>\n${S}`, calls: [] },
    {
      what: "truncated JSON",
      reply: '<tool_call>\n{"name": "search_posts", "argu\n</tool_call>',
      calls: [
        [
          '{"name": "search_posts", "argu',
          null,
          "error: JSONDecodeError: Unterminated string starting at: line 1 column 26 (char 25)",
        ],
      ],
    },
    { what: "wrong tag (Phi's): no call", reply: `<|tool_call|>[${S}]<|/tool_call|>`, calls: [] },
  ],
  llama3: [
    { what: "one call, bare", reply: LS, calls: [[LS, ...search]] },
    { what: "one call after <|python_tag|>", reply: `<|python_tag|>${LS}`, calls: [[LS, ...search]] },
    {
      what: "two calls separated by ;",
      reply: `${LS}; {"name": "read_section", "parameters": {"post": "a", "heading": "b"}}`,
      calls: [
        [LS, ...search],
        ['{"name": "read_section", "parameters": {"post": "a", "heading": "b"}}', ...read],
      ],
    },
    { what: "text before the call: no call", reply: `Sure. ${LS}`, calls: [] },
    {
      what: "truncated JSON",
      reply: '{"name": "search_posts", "parameters": {"query": "kv',
      calls: [
        [
          '{"name": "search_posts", "parameters": {"query": "kv',
          null,
          "error: JSONDecodeError: Unterminated string starting at: line 1 column 50 (char 49)",
        ],
      ],
    },
    { what: "arguments under Qwen's key", reply: S, calls: [[S, "search_posts", null]] },
    { what: "wrong tag (Hermes'): no call", reply: `<tool_call>\n${LS}\n</tool_call>`, calls: [] },
  ],
  mistral: [
    { what: "one call", reply: `[TOOL_CALLS][${S}]`, calls: [[S, ...search]] },
    {
      what: "two calls",
      reply: `[TOOL_CALLS] [${S}, ${R}]`,
      calls: [
        [S, ...search],
        [R, ...read],
      ],
    },
    { what: "marker dropped as a control token", reply: `[${S}]`, calls: [[S, ...search]] },
    { what: "text before the call", reply: `I will search.[TOOL_CALLS][${S}]`, calls: [[S, ...search]] },
    {
      what: "truncated JSON",
      reply: `[TOOL_CALLS][${S}, {"name": "read_section", "argum`,
      calls: [
        [S, ...search],
        [
          '{"name": "read_section", "argum',
          null,
          "error: JSONDecodeError: Unterminated string starting at: line 1 column 26 (char 25)",
        ],
      ],
    },
    { what: "an answer in brackets: no call", reply: "[1] See the post.\nSource: a", calls: [] },
    { what: "wrong tag (Hermes'): no call", reply: `<tool_call>\n${S}\n</tool_call>`, calls: [] },
  ],
  "mistral-v11": [
    {
      what: "one call",
      reply: '[TOOL_CALLS]search_posts[ARGS]{"query": "kv cache"}',
      calls: [['search_posts[ARGS]{"query": "kv cache"}', ...search]],
    },
    {
      what: "two calls, one with a call id",
      reply:
        '[TOOL_CALLS]search_posts[CALL_ID]a1b2c3d4e[ARGS]{"query": "kv cache"}[TOOL_CALLS]read_section[ARGS]{"post": "a", "heading": "b"}',
      calls: [
        ['search_posts[CALL_ID]a1b2c3d4e[ARGS]{"query": "kv cache"}', ...search],
        ['read_section[ARGS]{"post": "a", "heading": "b"}', ...read],
      ],
    },
    {
      what: "text before the call",
      reply: 'Let me search.[TOOL_CALLS]search_posts[ARGS]{"query": "kv cache"}',
      calls: [['search_posts[ARGS]{"query": "kv cache"}', ...search]],
    },
    {
      what: "truncated JSON",
      reply: '[TOOL_CALLS]search_posts[ARGS]{"query": "kv',
      calls: [
        [
          'search_posts[ARGS]{"query": "kv',
          null,
          "error: JSONDecodeError: Unterminated string starting at: line 1 column 11 (char 10)",
        ],
      ],
    },
    {
      what: "an unknown tool",
      reply: '[TOOL_CALLS]browse[ARGS]{"url": "x"}',
      calls: [['browse[ARGS]{"url": "x"}', null, "error: KeyError: 'browse'"]],
    },
    { what: "no [ARGS]: no call", reply: "[TOOL_CALLS]search_posts", calls: [] },
    { what: "the older JSON list: no call", reply: `[TOOL_CALLS][${S}]`, calls: [] },
  ],
  phi4: [
    { what: "one call", reply: `<|tool_call|>[${S}]<|/tool_call|>`, calls: [[S, ...search]] },
    { what: "one call as an object", reply: `<|tool_call|>${S}<|/tool_call|>`, calls: [[S, ...search]] },
    {
      what: "two calls in two blocks",
      reply: `<|tool_call|>[${S}]<|/tool_call|><|tool_call|>[${R}]<|/tool_call|>`,
      calls: [
        [S, ...search],
        [R, ...read],
      ],
    },
    { what: "text before the call", reply: `Searching.\n<|tool_call|>[${S}]<|/tool_call|>`, calls: [[S, ...search]] },
    { what: "tags dropped as control tokens", reply: `[${S}]`, calls: [[S, ...search]] },
    { what: "a tag that opens no JSON: no call", reply: "<|tool_call|>search the blog<|/tool_call|>", calls: [] },
    {
      what: "unclosed and truncated",
      reply: '<|tool_call|>[{"name": "search_posts"',
      calls: [
        [
          '{"name": "search_posts"',
          null,
          "error: JSONDecodeError: Expecting ',' delimiter: line 1 column 24 (char 23)",
        ],
      ],
    },
    { what: "wrong tag (Hermes'): no call", reply: `<tool_call>\n${S}\n</tool_call>`, calls: [] },
  ],
  emulated: [
    { what: "one call", reply: `<tool_call>\n${S}\n</tool_call>`, calls: [[S, ...search]] },
    { what: "wrong tag: no call", reply: `[TOOL_CALLS][${S}]`, calls: [] },
  ],
};

for (const [format, cases] of Object.entries(CASES) as [ToolFormat, readonly Case[]][]) {
  const dialect = DIALECTS[format];
  for (const c of cases) {
    test(`${format}: ${c.what}`, () => {
      const found = dialect.findCalls(c.reply);
      assert.deepEqual(
        found,
        c.calls.map(([raw]) => raw),
      );
      for (const [i, [, name, args]] of c.calls.entries()) {
        const bound = binderOf(dialect)(found[i]!);
        if (name === null) assert.equal(bound.kind === "failed" ? bound.error : "bound", args);
        else if (args === null) assert.equal(bound.kind, "failed");
        else {
          assert.equal(bound.kind, "bound");
          assert.equal(bound.name, name);
          assert.deepEqual(toPlainJson(bound.arguments), args);
        }
      }
    });
  }
}

test("every dialect's fixtures hold a call, two calls, a broken call and a reply with none", () => {
  for (const [format, cases] of Object.entries(CASES)) {
    if (format === "emulated") continue; // hermes' parser, tested above
    assert.ok(
      cases.some((c) => c.calls.length === 1),
      format,
    );
    assert.ok(
      cases.some((c) => c.calls.length === 2),
      format,
    );
    assert.ok(
      cases.some((c) => c.calls.some(([, name]) => name === null)),
      format,
    );
    assert.ok(
      cases.some((c) => c.calls.length === 0),
      format,
    );
  }
});

test("each dialect's forced prefix starts a call its own parser takes", () => {
  const rest: Readonly<Record<ToolFormat, string>> = {
    hermes: `${S}\n</tool_call>`,
    emulated: `${S}\n</tool_call>`,
    llama3: 'search_posts", "parameters": {"query": "kv cache"}}',
    mistral: `[${S}]`,
    "mistral-v11": 'search_posts[ARGS]{"query": "kv cache"}',
    phi4: `[${S}]<|/tool_call|>`,
  };
  for (const dialect of Object.values(DIALECTS)) {
    const format = dialect.format as ToolFormat;
    const bound = binderOf(dialect)(dialect.findCalls((dialect.forced.prefix ?? "") + rest[format])[0]!);
    assert.equal(bound.kind, "bound", dialect.format);
  }
});

test("a reply that looks like another dialect's call is flagged; one in the parsed dialect is not", () => {
  assert.equal(looksForeign(`<tool_call>\n${S}\n</tool_call>`, DIALECTS.hermes), false);
  assert.equal(looksForeign(`${S}`, DIALECTS.hermes), true); // a bare {"name": ...} in a Qwen reply
  assert.equal(looksForeign(`[TOOL_CALLS][${S}]`, DIALECTS.hermes), true);
  assert.equal(looksForeign(`<|tool_call|>[${S}]<|/tool_call|>`, DIALECTS.emulated), true);
  assert.equal(looksForeign(LS, DIALECTS.llama3), false);
  assert.equal(looksForeign(`<tool_call>\n${LS}\n</tool_call>`, DIALECTS.llama3), true); // a <tool_call> in a Llama reply
  assert.equal(looksForeign("The answer is 4.\nSource: a", DIALECTS.mistral), false);
  assert.equal(looksForeign(`<tool_call>\n${S}\n</tool_call>`, DIALECTS.emulated), false);
  assert.equal(looksForeign(`[TOOL_CALLS][${S}]`, DIALECTS["mistral-v11"]), false); // one family: the same marker
  assert.equal(looksForeign(`<tool_call>\n${S}\n</tool_call>`, DIALECTS.mistral), true);
});

test("each format's example reply is one call its own parser takes and binds, and no other family's", () => {
  const call = { name: "read_section", arguments: { post: "a", heading: "b" } };
  assert.equal(new Set(TOOL_FORMATS).size, TOOL_FORMATS.length);
  for (const format of TOOL_FORMATS) {
    const dialect = DIALECTS[format];
    const reply = dialect.exampleReply(call);
    const found = dialect.findCalls(reply);
    assert.equal(found.length, 1, format);
    const bound = binderOf(dialect)(found[0]!);
    assert.equal(bound.kind, "bound", format);
    assert.equal(bound.name, call.name, format);
    assert.deepEqual(toPlainJson(bound.arguments), call.arguments, format);
    assert.equal(looksForeign(reply, dialect), false, format);
  }
});

test("Mistral's call ids are 9 alphanumerics, distinct within a run", () => {
  const ids = [1, 2, 6].flatMap((turn) => [1, 2, 3].map((i) => mistralCallId(turn, i)));
  for (const id of ids) assert.match(id, /^[A-Za-z0-9]{9}$/);
  assert.equal(new Set(ids).size, ids.length);
});
