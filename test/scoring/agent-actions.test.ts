// What the agents did, from runs of the scripted runtime through the study's loop: each count checked by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runDesign } from "../../src/designs/run-design.ts";
import { answerRecord } from "../../src/runs/answer-record.ts";
import type { DesignId } from "../../src/designs/registry.ts";
import { agentActionRows } from "../../src/scoring/index.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { fakeIndex, scriptedRuntime, SCRIPTED_QUESTION } from "../helpers/scripted-runtime.ts";

const SLUGS = ["flashattention-explained", "kv-cache-inference", "bm25-hybrid-search"];
const call = (name: string, args: unknown) => `${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
const written = (name: string, args: unknown) => `<tool_call>\n${call(name, args)}`;
const search = (query: string) => written("search_posts", { query });

async function run(design: DesignId, id: string, replies: string[], model = "m") {
  const runtime = scriptedRuntime(replies);
  const transcript = await runDesign(design, { question: SCRIPTED_QUESTION.question, runtime, index: fakeIndex() });
  return answerRecord(model, design, { ...SCRIPTED_QUESTION, id }, transcript);
}

const records = await Promise.all([
  // Searches on every one of the 6 turns: the turn limit fires, and the answer has no source line.
  run(
    "agent",
    "q1",
    Array.from({ length: 6 }, (_, i) => search(`running maximum ${i}`)),
  ),
  // Reads a section, then answers with one real post.
  run("agent", "q2", [
    written("read_section", { post: "flashattention-explained", heading: "The online softmax" }),
    "A.\nSource: flashattention-explained",
  ]),
  // Searches twice, then copies the prompt's placeholder.
  run("agent", "q3", [search("running maximum"), search("online softmax"), "A.\nSource: <post>"]),
  // A search with a wrong argument fails: it ran nothing, so the run did not search. Then two posts are cited.
  run("agent", "q4", [
    written("search_posts", { q: "softmax" }),
    "A.\nSource: kv-cache-inference, flashattention-explained",
  ]),
  // No tool at all.
  run("agent", "q5", ["A.\nSource: kv-cache-inference"]),
  // The forced design: the first reply starts inside a call, the second answers: two model calls each.
  run("agent-forced", "q1", [call("search_posts", { query: "running maximum" }), "A.\nSource: kv-cache-inference"]),
  run("agent-forced", "q2", [call("read_section", { post: "kv-cache-inference", heading: "Intro" }), "A."]),
  // The workflow's one search is the design's, not the model's: it has no row.
  run("workflow", "q1", ["A.\nSource: flashattention-explained"]),
]);

test("the loop's runs give the counts worked out by hand, one row per agent design", () => {
  const rows = agentActionRows(records, SLUGS);
  assert.deepEqual(
    rows.map((r) => r.design),
    ["agent", "agent-forced"],
  );
  assert.deepEqual(rows[0], {
    model: "m",
    design: "agent",
    n: 5,
    hit_turn_limit: 1,
    searched: 2,
    searched_again: 2,
    read_section: 1,
    calls_per_run: [
      [1, 1],
      [2, 2],
      [3, 1],
      [6, 1],
    ],
    source_none: 1,
    source_one_real: 2,
    source_several: 1,
    source_invented: 1,
  });
  // The read of a heading that does not exist fails as the study's read_section raised: it is no read.
  assert.deepEqual(rows[1], {
    model: "m",
    design: "agent-forced",
    n: 2,
    hit_turn_limit: 0,
    searched: 1,
    searched_again: 0,
    read_section: 0,
    calls_per_run: [[2, 2]],
    source_none: 1,
    source_one_real: 1,
    source_several: 0,
    source_invented: 0,
  });
});

test("rows follow the models in first-seen order; two-post questions and a log of workflows give none", async () => {
  const other = await run("agent", "q1", ["A."], "other");
  const twoPost = makeRecord({ design: "agent", question_id: "t1", gold_posts: SLUGS.slice(0, 2) });
  const rows = agentActionRows([other, ...records, twoPost], SLUGS);
  assert.deepEqual(
    rows.map((r) => [r.model, r.design, r.n]),
    [
      ["other", "agent", 1],
      ["m", "agent", 5],
      ["m", "agent-forced", 2],
    ],
  );
  assert.deepEqual(
    agentActionRows(
      records.filter((r) => r.design === "workflow"),
      SLUGS,
    ),
    [],
  );
});
