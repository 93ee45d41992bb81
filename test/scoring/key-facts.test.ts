// The key-fact measures on hand-written answers: right, partly right, right with the wrong source, a source copied
// into a wrong answer, numbers as digits and as words, facts from evidence and from memory, and no facts at all.
import { test } from "node:test";
import assert from "node:assert/strict";
import { keyFactRows } from "../../src/scoring/index.ts";
import { evidenceText, factVerdict } from "../../src/scoring/key-facts.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import type { ModelCall } from "../../src/designs/index.ts";

const SLUGS = ["kv-cache-inference", "decoding-and-sampling"];
const FACTS = [["16 tokens"], ["block table", "block tables"], ["under 4%", "less than 4%"]];
const retrieval = {
  query: "paging",
  hits: [
    {
      post: "kv-cache-inference",
      heading: "Paged attention",
      snippet: "fixed-size blocks, 16 tokens each; a block table maps positions; under 4% waste",
    },
  ],
};
// null: a question without facts.
const run = (answer: string, facts: readonly (readonly string[])[] | null = FACTS) =>
  makeRecord({ question_id: "q06", answer, retrieval, ...(facts ? { facts } : {}) });

test("a right answer states every fact, and all came from what the search showed", () => {
  const r = run("Blocks of sixteen tokens, a block table, under 4 percent waste.\nSource: kv-cache-inference");
  assert.deepEqual(factVerdict(r), { facts: 3, stated: 3, right: true, statedInEvidence: 3, from: "evidence" });
});

test("a partly right answer states some facts; one the run never showed is from memory", () => {
  const partly = run("It uses a block table.\nSource: kv-cache-inference");
  assert.deepEqual(factVerdict(partly), { facts: 3, stated: 1, right: false, statedInEvidence: 1, from: "evidence" });
  const noEvidence = makeRecord({ question_id: "q06", facts: FACTS, answer: "16 tokens a block.\nSource: x" });
  assert.deepEqual(factVerdict(noEvidence), {
    facts: 3,
    stated: 1,
    right: false,
    statedInEvidence: 0,
    from: "memory",
  });
});

test("numbers count as digits and as words; the Source line is not part of the answer's content", () => {
  const words = run("Pages of sixteen tokens, with block tables, and less than four percent lost.");
  assert.equal(factVerdict(words).right, true);
  const onlyInSource = run("No idea.\nSource: block table", [["block table"]]);
  assert.equal(factVerdict(onlyInSource).stated, 0);
  assert.equal(factVerdict(onlyInSource).from, null);
});

test("a question without facts leaves every measure blank, not zero", () => {
  assert.deepEqual(factVerdict(run("Anything.", null)), {
    facts: null,
    stated: null,
    right: null,
    statedInEvidence: null,
    from: null,
  });
});

test("the evidence is every hit and every tool result, JSON results read as their strings", () => {
  const call: ModelCall = {
    messages: [{ role: "user", content: "q" }],
    withTools: true,
    reply: "<tool_call>...",
    record: { tokensRead: 10, tokensEvaluated: 10, tokensGenerated: 5, stopReason: "eos", seconds: 0.1 },
    toolCalls: [
      {
        raw: "{}",
        name: "read_section",
        arguments: {},
        result: '{"text": "about 20\\u00d7 larger"}',
        malformed: false,
        shownPosts: ["kv-cache-inference"],
      },
    ],
  };
  const r = makeRecord({ question_id: "q26", calls: [call], facts: [["20\u00d7", "20 times"]], answer: "20× larger" });
  assert.equal(evidenceText(r.transcript), "about 20\u00d7 larger");
  assert.equal(factVerdict(r).from, "evidence");
});

test("the design table crosses answer right with strict cites right, and blanks a log without facts", () => {
  const records = [
    run("16 tokens, a block table, under 4%.\nSource: kv-cache-inference"), // right, cited right
    run("16 tokens, a block table, under 4%.\nSource: decoding-and-sampling"), // right, cited wrong
    run("16 tokens, a block table, under 4%."), // right, no source
    run("It samples greedily.\nSource: kv-cache-inference"), // cited right, wrong
    makeRecord({ question_id: "q07", facts: [["nucleus"]], answer: "The nucleus.\nSource: kv-cache-inference" }),
  ];
  assert.deepEqual(keyFactRows(records, SLUGS), [
    {
      set: "one-post",
      model: "tiny.gguf",
      design: "workflow",
      n: 5,
      with_facts: 5,
      facts_stated: 10,
      facts_asked: 13,
      answer_right: 4,
      right_cited_right: 2,
      right_cited_wrong: 2,
      cited_right_wrong: 1,
      from_evidence: 3,
      from_memory: 1,
    },
  ]);
  const [blank] = keyFactRows([run("Anything.", null)], SLUGS);
  assert.deepEqual(
    [blank?.n, blank?.with_facts, blank?.answer_right, blank?.from_memory, blank?.facts_asked],
    [1, 0, null, null, null],
  );
});
