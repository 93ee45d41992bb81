// Runs whose model call failed are never scored: every table, comparison and page leaves them out and says how many.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compareText, readRunFolder, rescoreText, writeTables } from "../../src/report/index.ts";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { leftOutNote, type StrictRow } from "../../src/scoring/index.ts";
import { makeRecord, type RecordSpec } from "../helpers/answer-records.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const SLUGS = ["kv-cache-inference", "flashattention-explained"];
const folder = tempFolders("blogqa-failed");

/** A blog of the two posts in SLUGS, for a log without a manifest. */
function writeBlog(dir: string): string {
  const content = path.join(dir, "content");
  mkdirSync(content);
  for (const slug of SLUGS)
    writeFileSync(path.join(content, `${slug}.mdx`), `---\ntitle: ${slug}\n---\n\nIntro.\n\n## A heading\n\nText.\n`);
  return content;
}

function failed(spec: RecordSpec): AnswerRecord {
  const r = makeRecord({ ...spec, answer: "" });
  const error = "HTTP 500: server error";
  return {
    ...r,
    outcome: "error",
    error,
    transcript: { calls: r.transcript.calls, answer: "", outcome: "error", error },
  };
}

/** Workflow: q01 right, q02 failed; agent: both failed. */
function log(): AnswerRecord[] {
  return [
    makeRecord({ design: "workflow", question_id: "q01", found: true, answer: "A.\nSource: kv-cache-inference" }),
    failed({ design: "workflow", question_id: "q02" }),
    failed({ design: "agent", question_id: "q01" }),
    failed({ design: "agent", question_id: "q02" }),
  ];
}

test("tables.md leaves failed runs out of every rate and says under each table how many", () => {
  const dir = folder("tables");
  const { markdown } = writeTables(dir, log(), SLUGS, { sections: 3 });
  // the workflow's one scored run; the agent, all failed, has no row; the failed workflow run is its errors column
  assert.match(markdown, /\| one retrieval, one answer \| 1 \| 1 \| 1 \| 1\.0 \| 0\.0 \| 400 \| 400 \| 0 \| 0 \| 1 \|/);
  assert.doesNotMatch(markdown, /\| agent loop \|/);
  assert.match(markdown, /\| tiny \| one retrieval, one answer \| 1 \| 1 \| 0 \| 1 \| 0 \| 0 \| 0 \| 0 \|/);
  const notes = markdown.split("\n").filter((l) => l.includes("left out"));
  assert.deepEqual(notes, [
    "3 runs left out: their model call failed (outcome error)",
    "3 runs left out: their model call failed (outcome error)",
  ]);
});

test("rescore and compare leave failed runs out, say so under the tables and on stderr", async () => {
  const dir = folder("cli");
  writeFileSync(
    path.join(dir, "answers.jsonl"),
    log()
      .map((r) => `${JSON.stringify(r)}\n`)
      .join(""),
  );
  const content = writeBlog(dir);
  const notices: string[] = [];
  const run = await readRunFolder(dir, { content, onNotice: (l) => notices.push(l) });
  assert.deepEqual(notices, [
    `${path.join(dir, "answers.jsonl")}: 3 runs left out: their model call failed (outcome error)`,
  ]);
  const rescore = rescoreText(run);
  assert.doesNotMatch(rescore, /\| tiny \| agent loop \|/);
  assert.match(rescore, /\n3 runs left out: their model call failed \(outcome error\)$/);
  const compare = compareText(run);
  assert.doesNotMatch(compare, /0\/2/);
  assert.match(compare, /3 runs left out: their model call failed \(outcome error\)/);
});

test("the page's study and strict tables leave failed runs out and say how many; the transcripts keep them", () => {
  const page = reportPage("t", { records: log(), slugs: SLUGS, context: { sections: 3 }, slugsFrom: "x" });
  const strict = page.data.tables.strict?.rows["strict.csv"] as StrictRow[] | undefined;
  assert.deepEqual(
    strict?.map((r) => [r.design, r.n, r.source_none]),
    [["workflow", 1, 0]],
  );
  assert.equal(page.data.runs.length, 4);
  const html = renderReportHtml(page);
  assert.match(html, /<p class="note">3 runs left out: their model call failed \(outcome error\)<\/p>/);
});

test("a table's header counts the questions its rows count, not the manifest's", () => {
  const dir = folder("header");
  const records = ["q01", "q02", "q03", "q04", "q05", "q06"].map((id) => makeRecord({ question_id: id }));
  const { markdown } = writeTables(dir, records, SLUGS, { sections: 3 });
  assert.match(markdown, /^3 sections; 6 questions; tiny, greedy$/m);
  const uneven = [...records, ...["q01", "q02"].map((id) => makeRecord({ design: "agent", question_id: id }))];
  assert.match(
    writeTables(dir, uneven, SLUGS, { sections: 3 }).markdown,
    /^3 sections; 2 to 6 questions; tiny, greedy$/m,
  );
});

test("a log of two samples counts runs, not questions, in the header, and says it sampled", () => {
  const dir = folder("samples");
  const records = [0, 1].flatMap((sample) =>
    ["q01", "q02", "q03"].map((id) => ({ ...makeRecord({ question_id: id }), sample, seed: 7 + sample })),
  );
  const { markdown } = writeTables(dir, records, SLUGS, { sections: 3 });
  assert.match(markdown, /^3 sections; 6 runs over 2 wording and sample conditions; tiny, sampled$/m);
  const html = renderReportHtml(reportPage("t", { records, slugs: SLUGS, context: { sections: 3 }, slugsFrom: "x" }));
  assert.match(html, /take each run as independent, which runs of one question are not/);
  assert.match(html, /with 6 runs over 2 wording and sample conditions they are wide/);
});

/** A failed run whose last call stopped for `stopReason`, with `error`. */
function stoppedBy(id: string, stopReason: "context-overflow" | "refused", error: string): AnswerRecord {
  const r = failed({ question_id: id });
  const calls = r.transcript.calls.map((c) => ({
    ...c,
    reply: "",
    record: { ...c.record, tokensGenerated: 0, stopReason, error },
  }));
  return { ...r, error, transcript: { calls, answer: "", outcome: "error", error } };
}

test("runs whose prompt did not fit the context are counted apart from other failures", () => {
  const overflowed = (id: string) =>
    stoppedBy(id, "context-overflow", "prompt of 40000 tokens does not fit the context of 32768 tokens");
  assert.equal(
    leftOutNote([overflowed("q01")]),
    "1 run left out: 1 run whose prompt did not fit the context (context-overflow: a larger --context-size answers it)",
  );
  assert.equal(
    leftOutNote([overflowed("q01"), overflowed("q02"), failed({ question_id: "q03" })]),
    "3 runs left out (outcome error): 2 runs whose prompt did not fit the context (context-overflow: a larger " +
      "--context-size answers them), 1 run whose model call failed otherwise",
  );
  assert.equal(leftOutNote(log().slice(1)), "3 runs left out: their model call failed (outcome error)");
});

test("runs whose last call a server refused are counted apart: a resume would not answer them", () => {
  const refused = (id: string) =>
    stoppedBy(id, "refused", "server: HTTP 500: Failed to parse tool call arguments as JSON: parse error");
  assert.equal(
    leftOutNote([refused("q01")]),
    "1 run left out: 1 run whose last call the server refused (refused: the same request fails again, so a " +
      "resume skips it)",
  );
  const overflowed = stoppedBy("q02", "context-overflow", "prompt of 40000 tokens does not fit");
  assert.equal(
    leftOutNote([refused("q01"), overflowed, refused("q03"), failed({ question_id: "q04" })]),
    "4 runs left out (outcome error): 1 run whose prompt did not fit the context (context-overflow: a larger " +
      "--context-size answers it), 2 runs whose last call the server refused (refused: the same request fails " +
      "again, so a resume skips them), 1 run whose model call failed otherwise",
  );
});
