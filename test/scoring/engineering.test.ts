// The engineering measures and "What the engineering bought", from runs of the scripted runtime on the fake blog.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runDesign } from "../../src/designs/run-design.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import type { DesignId } from "../../src/designs/registry.ts";
import { compareRuns, engineeringRows } from "../../src/scoring/index.ts";
import { engineeringGrids } from "../../src/report/engineering-tables.ts";
import { modelLabels } from "../../src/report/model-labels.ts";
import { markdownTable } from "../../src/report/tables.ts";
import { fakeIndex, scriptedRuntime } from "../helpers/scripted-runtime.ts";

const SLUGS = ["flashattention-explained", "kv-cache-inference", "bm25-hybrid-search"];
const QUESTION = {
  question: "How is the running maximum of the online softmax updated?",
  post: "flashattention-explained",
  heading: "The online softmax",
};
const forcedCall = (name: string, args: unknown) => `${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

async function run(design: DesignId, id: string, replies: string[]) {
  const runtime = scriptedRuntime(replies);
  return answerRecord(
    "m",
    design,
    { id, ...QUESTION },
    await runDesign(design, { question: QUESTION.question, runtime, index: fakeIndex() }),
  );
}

const records = await Promise.all([
  // Wrong (unseen post), repaired to right.
  run("agent-cite-checked", "q1", [
    forcedCall("search_posts", { query: "running maximum" }),
    "A.\nSource: kv-cache-inference",
    "A.\nSource: flashattention-explained",
  ]),
  // Right but unseen, repaired to wrong.
  run("agent-cite-checked", "q2", [
    forcedCall("search_posts", { query: "prefill decode" }),
    "A.\nSource: flashattention-explained",
    "A.\nSource: kv-cache-inference",
  ]),
  // Right and seen: left alone.
  run("agent-cite-checked", "q3", [
    forcedCall("search_posts", { query: "running maximum" }),
    "A.\nSource: flashattention-explained",
  ]),
  run("agent-validated", "q1", [
    forcedCall("read_section", { post: "flashattention-explained", heading: "Intro" }),
    "A.\nSource: flashattention-explained",
  ]),
  run("agent-validated", "q2", [forcedCall("search_posts", { query: 7 }), "A.\nSource: flashattention-explained"]),
  run("agent-validated", "q3", [
    forcedCall("search_posts", { query: "online softmax" }),
    "A.\nSource: flashattention-explained",
  ]),
  ...["q1", "q2", "q3"].map((id) =>
    run("agent-forced", id, [
      forcedCall("search_posts", { query: "running maximum" }),
      "A.\nSource: kv-cache-inference",
    ]),
  ),
  ...["q1", "q2", "q3"].map((id) => run("workflow", id, ["A.\nSource: flashattention-explained"])),
]);

test("repairs: how many, how many changed the answer, to right and to wrong, and what one costs", () => {
  const row = engineeringRows(records, SLUGS).find((r) => r.design === "agent-cite-checked")!;
  assert.deepEqual([row.n, row.repair_turns, row.changed, row.to_right, row.to_wrong], [3, 2, 2, 1, 1]);
  const repairTokens = records
    .filter((r) => r.first_answer !== undefined)
    .map((r) => r.transcript.calls.at(-1)!.record.tokensRead);
  assert.equal(row.tokens_per_repair, (repairTokens[0]! + repairTokens[1]!) / 2);
  assert.equal(row.refused_calls, null, "no validation step");
});

test("validation: calls refused, by kind; designs without the step show none", () => {
  const rows = engineeringRows(records, SLUGS);
  const validated = rows.find((r) => r.design === "agent-validated")!;
  assert.deepEqual(
    [validated.refused_calls, validated.refusals_by_kind, validated.repair_turns],
    [2, "wrong-type 1, no-such-heading 1", null],
  );
  assert.equal(rows.find((r) => r.design === "agent-forced")!.refused_calls, null);
});

test("the tool block: per call with tools, and its share of tokens read; the workflow has none", () => {
  const rows = engineeringRows(records, SLUGS);
  const forced = rows.find((r) => r.design === "agent-forced")!;
  const forcedRuns = records.filter((r) => r.design === "agent-forced");
  const block = forcedRuns[0]!.transcript.calls[0]!.record.toolBlockTokens!;
  assert.equal(forced.tool_block_per_call, block);
  assert.equal(forced.tool_block_share, (block * 6) / forcedRuns.reduce((a, r) => a + r.tokens_read, 0));
  assert.equal(rows.find((r) => r.design === "workflow")!.tool_block_per_call, null);
});

test("What the engineering bought: each design's cites right with its interval, tokens read, and both paired p-values", () => {
  const label = modelLabels(records.map((r) => r.model));
  const [bought, measures] = engineeringGrids(records, SLUGS, label);
  assert.deepEqual(
    bought!.rows.map((r) => r[0]),
    ["agent, first call forced", "agent, validated calls", "agent, citation checked", "one retrieval, one answer"],
  );
  const citeChecked = bought!.rows[2]!;
  assert.equal(citeChecked[1], "2/3 (67%, 21-94%)");
  // Forced: 0/3 right; cite-checked: 2/3 right, so two questions flip one way: p = 0.5.
  assert.equal(citeChecked[3], "0.500 (agent, first call forced)");
  assert.equal(citeChecked[4], "1.000");
  assert.equal(bought!.rows[3]![4], "-", "the workflow is not tested against itself");
  // The workflow is right on all three; only q2 (repaired to wrong) differs: p = 1.
  assert.match(markdownTable(bought!), /^What the engineering bought: m\n/);
  assert.equal(measures!.rows.length, 4);
  assert.deepEqual(
    engineeringGrids(
      records.filter((r) => r.design === "workflow"),
      SLUGS,
      label,
    ),
    [],
    "no section without an engineered design",
  );
});

test("compare pairs each engineered agent design with the forced agent; the cite-checked workflow is already paired", () => {
  const extra = records
    .filter((r) => r.design === "workflow")
    .map((r) => ({ ...r, design: "workflow-cite-checked" as const }));
  const pairs = compareRuns([...records, ...extra], SLUGS).filter(
    (c) => c.across === "extends" && c.measure === "found",
  );
  assert.deepEqual(
    pairs.map((c) => [c.a.design, c.b.design]),
    [
      ["agent-forced", "agent-validated"],
      ["agent-forced", "agent-cite-checked"],
    ],
  );
});
