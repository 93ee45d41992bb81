// A run whose model calls failed says so and exits 3; resuming retries those runs, their new line superseding the error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { failedRunsError } from "../../src/runs/index.ts";
import { readAnswerLog } from "../../src/runs/answer-log.ts";
import type { LoadedModel } from "../../src/llm/types.ts";
import { compileChatTemplate } from "../../src/llm/chat-template.ts";
import type { Question } from "../../src/corpus/types.ts";
import { fakeIndex } from "../helpers/scripted-runtime.ts";
import { runStudyIn } from "../helpers/run-in-folder.ts";
import { makeRecord } from "../helpers/answer-records.ts";

const QUESTIONS: Question[] = ["q1", "q2"].map((id) => ({
  id,
  question: `Question ${id}?`,
  post: "flashattention-explained",
  heading: "The online softmax",
}));

/**
 * Every call answers, or every call fails as a server past its retries does, or as a server refuses what asking again
 * cannot change ("refused").
 */
function model(fails: boolean | "refused"): LoadedModel {
  return {
    info: {} as LoadedModel["info"],
    template: compileChatTemplate("{{ '<tool_call>' }}", "a Hermes-style test template"),
    renderPrompt: () => "",
    countTokens: () => 0,
    dispose: async () => {},
    openRuntimes: async (count: number) =>
      Array.from({ length: count }, () => ({
        generate: async () => ({
          prompt: "p",
          text: fails ? "" : "A.\nSource: flashattention-explained",
          record: fails
            ? {
                tokensRead: 5,
                tokensEvaluated: 5,
                tokensGenerated: 0,
                stopReason: fails === "refused" ? ("refused" as const) : ("error" as const),
                seconds: 0,
                error: "HTTP 500",
              }
            : { tokensRead: 5, tokensEvaluated: 5, tokensGenerated: 3, stopReason: "eos" as const, seconds: 0 },
        }),
      })),
  };
}

const run = (dir: string, fails: boolean | "refused") =>
  runStudyIn(dir, {
    models: ["m"],
    designs: ["workflow"],
    questions: QUESTIONS,
    openModel: async () => model(fails),
    index: fakeIndex(),
    settings: { parallel: 1, reuseCache: true, sharedContext: false, maxNewTokens: 50 },
  });

test("a run whose every call failed counts them failed and ends in exit status 3", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-failed-"));
  const summary = await run(dir, true);
  assert.deepEqual([summary.ran, summary.failed, summary.refused, summary.skipped], [2, 2, 0, 0]);
  const error = failedRunsError(summary);
  assert.equal(error?.exitCode, 3);
  assert.equal(
    error?.message,
    `2 of 2 runs failed (their model call failed; outcome error in ${summary.answersFile}): they are left out of ` +
      "the tables, and running the same command again retries them",
  );
  assert.equal(failedRunsError({ ...summary, failed: 0 }), undefined);
});

test("resuming retries the runs that ended in a call error; the reader keeps the new line", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-retry-"));
  await run(dir, true);
  const summary = await run(dir, false);
  assert.deepEqual([summary.ran, summary.failed, summary.skipped], [2, 0, 0]);
  assert.equal(readFileSync(summary.answersFile, "utf8").trim().split("\n").length, 4);
  const { records, lineNumbers } = readAnswerLog(summary.answersFile);
  assert.deepEqual(
    records.map((r) => [r.question_id, r.outcome]),
    [
      ["q1", "answered"],
      ["q2", "answered"],
    ],
  );
  // Back in plan order at the end, each retried run's new line right after the error it supersedes.
  assert.deepEqual(lineNumbers, [2, 4]);
});

test("a resume skips runs the server refused, and the exit line says a rerun would not change them", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-refused-"));
  const first = await run(dir, "refused");
  assert.deepEqual([first.ran, first.failed, first.refused, first.skipped], [2, 2, 2, 0]);
  assert.equal(
    failedRunsError(first)?.message,
    `2 of 2 runs failed (their model call failed; outcome error in ${first.answersFile}): they are left out of the ` +
      "tables, and the server refused their last call, so running the same command again would not change them " +
      "(stopReason refused: the same request fails again)",
  );
  assert.equal(failedRunsError(first)?.exitCode, 3);
  const resumed = await run(dir, false);
  assert.deepEqual([resumed.ran, resumed.failed, resumed.refused, resumed.skipped], [0, 0, 0, 2]);
  assert.equal(readFileSync(first.answersFile, "utf8").trim().split("\n").length, 2);
  // one of each: the transient failure is retried, the refusal is not
  assert.match(
    failedRunsError({ ...first, failed: 3, refused: 2 })?.message ?? "",
    /running the same command again retries 1 of them; the server refused the last call of the other 2, which the same request would not change \(stopReason refused\)$/,
  );
});

test("a second line after an answered one is still a duplicate, and so is an error after an answer", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-dup-"));
  const file = path.join(dir, "answers.jsonl");
  const answered = makeRecord({ question_id: "q1" });
  const failed = { ...answered, outcome: "error", error: "HTTP 500" };
  writeFileSync(file, [answered, failed].map((r) => `${JSON.stringify(r)}\n`).join(""));
  assert.throws(
    () => readAnswerLog(file),
    /answers\.jsonl:2: a second line for model tiny\.gguf, design workflow, question q1 \(first on line 1\)/,
  );
});
