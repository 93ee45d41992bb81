// The model judge on a local GGUF in this process, opened as any run's model: the tiny random qwen2 model writes
// gibberish, so these tests check what the loop does with whatever it replies (the exchange logged, the verdict read
// from the reply as the rubric reads it, unparsed recorded as such), its token cap, determinism and resuming.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, truncateSync } from "node:fs";
import path from "node:path";
import { loadModel } from "../../src/llm/index.ts";
import { judgeRunFolder, type JudgeRubric } from "../../src/runs/judge-runs.ts";
import { readManifest } from "../../src/runs/index.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { JUDGE_MAX_TOKENS, judgeRequest, parseVerdict } from "../../src/scoring/judge.ts";
import { JUDGE_FIXTURE, writeJudgeFixture } from "../helpers/judgments.ts";
import { runCliAsync } from "../helpers/run-cli.ts";
import { tempFolders } from "../helpers/temp-folders.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

const folder = tempFolders("blogqa-judge-local");

type Line = Record<string, unknown>;
const linesOf = (dir: string): Line[] =>
  readFileSync(path.join(dir, "judgments.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Line);
/** Every field but the seconds a judgment took, which no two runs share. */
const timeless = (lines: readonly Line[]) => lines.map(({ seconds: _, ...rest }) => rest);

/** The scoring rubric, with what it was asked to build and to read kept for the test. */
function watchedRubric() {
  const requests: ReturnType<typeof judgeRequest>[] = [];
  const replies: (string | null)[] = [];
  const rubric: JudgeRubric = {
    request: (model, run, gold) => {
      const request = judgeRequest(model, run, gold);
      requests.push(request);
      return request;
    },
    verdict: (reply) => {
      replies.push(reply);
      return parseVerdict(reply);
    },
  };
  return { rubric, requests, replies };
}

async function judgeLocally(dir: string, records: readonly AnswerRecord[], rubric: JudgeRubric, progress: string[]) {
  return judgeRunFolder({ dir, records, manifest: readManifest(dir) }, rubric, {
    model: await tinyModelPath(),
    cacheDir: testCacheDir,
    force: false,
    onProgress: (line) => progress.push(line),
  });
}

test("a local GGUF judges in process: the exchange, greedy within 16 tokens, the verdict as read, deterministic", async () => {
  const model = await tinyModelPath();
  const first = folder("first");
  const records = await writeJudgeFixture(first);
  const watched = watchedRubric();
  const progress: string[] = [];
  const judgments = await judgeLocally(first, records, watched.rubric, progress);

  const lines = linesOf(first);
  assert.equal(lines.length, JUDGE_FIXTURE.length);
  assert.equal(judgments.length, JUDGE_FIXTURE.length);
  assert.deepEqual(
    lines.map((l) => `${l.design} ${l.question_id}`),
    JUDGE_FIXTURE.map((f) => `${f.design} ${f.id}`),
  );
  assert.match(progress.join("\n"), /judging 6 runs with .*tiny-seed1\.gguf in this process/);
  // The same model opened apart, asked the logged requests in the same order on one sequence, as the judge asks them.
  const tiny = await loadModel(model, { cacheDir: testCacheDir, gpu: false, repetitionPenalty: "none" });
  try {
    const [runtime] = await tiny.openRuntimes(1, { reuseCache: true });
    for (const [i, line] of lines.entries()) {
      // What the rubric asked is logged as asked; in process nothing goes to a server.
      const request = watched.requests[i]!;
      assert.deepEqual(line.request, request);
      assert.equal(line.judge_model, model);
      assert.equal(line.judge_url, null);
      assert.equal(line.response, null);
      // The prompt the model read: the judge's two messages through the GGUF's own chat template, the reply to come.
      const prompt = String(line.prompt);
      assert.ok(prompt.startsWith(`<|im_start|>system\n${request.messages[0]!.content}<|im_end|>\n`), prompt);
      assert.ok(prompt.endsWith(`${request.messages[1]!.content}<|im_end|>\n<|im_start|>assistant\n`), prompt);
      assert.ok(prompt.includes(JUDGE_FIXTURE[i]!.answer), "the answer judged is in the prompt");
      // The reply is the greedy reply to that prompt, within the judge's 16 new tokens.
      const generation = await runtime!.generate({ messages: request.messages, maxTokens: request.max_tokens });
      assert.equal(generation.prompt, prompt);
      assert.equal(line.reply, generation.text);
      assert.ok(generation.record.tokensGenerated <= JUDGE_MAX_TOKENS);
      // Whatever the model wrote is the reply the rubric read, and its verdict is the rubric's reading of it.
      assert.equal(line.reply, watched.replies[i]);
      assert.equal(line.verdict, parseVerdict(line.reply as string));
    }
  } finally {
    await tiny.dispose();
  }
  const unparsed = lines.filter((l) => l.verdict === "unparsed").length;
  assert.match(progress.at(-1)!, new RegExp(`^judged 6 runs, ${unparsed} of them unparsed, in `));

  // The same folder judged again from a fresh model load: the same prompts, replies and verdicts.
  const second = folder("second");
  await writeJudgeFixture(second);
  await judgeLocally(second, records, watchedRubric().rubric, []);
  assert.deepEqual(timeless(linesOf(second)), timeless(lines));

  // Cut inside the fifth line: the torn line and the sixth are judged again, and come out as they did.
  const file = readFileSync(path.join(first, "judgments.jsonl"), "utf8");
  // (in bytes: the gibberish replies are not all ASCII)
  const fourLines = Buffer.byteLength(file.split("\n").slice(0, 4).join("\n"), "utf8") + 1;
  truncateSync(path.join(first, "judgments.jsonl"), fourLines + 30);
  const resumed: string[] = [];
  const again = watchedRubric();
  await judgeLocally(first, records, again.rubric, resumed);
  assert.equal(again.requests.length, 2, "only the two runs not judged are asked about");
  assert.match(resumed.join("\n"), /judging 2 runs with .* in this process \(4 judged before\)/);
  assert.deepEqual(timeless(linesOf(first)), timeless(lines));
});

test("rescore --judge-model without --judge judges in process from the command line, as the library does", async () => {
  const model = await tinyModelPath();
  const dir = folder("cli");
  const records = await writeJudgeFixture(dir);
  const result = await runCliAsync(["rescore", dir, "--judge-model", model, "--cache-dir", testCacheDir]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, /judging 6 runs with .*tiny-seed1\.gguf in this process/);
  const lines = linesOf(dir);
  // The library's judgments of the same folder in this process: the same exchange, line for line.
  const reference = folder("cli-reference");
  await writeJudgeFixture(reference);
  await judgeLocally(reference, records, watchedRubric().rubric, []);
  assert.deepEqual(timeless(lines), timeless(linesOf(reference)));
  // The judge's table is written with the verdicts, whatever they are.
  const tables = readFileSync(path.join(dir, "tables.md"), "utf8");
  assert.match(tables, /Model judge/);
  const unparsed = lines.filter((l) => l.verdict === "unparsed").length;
  assert.match(result.stderr, new RegExp(`judged 6 runs, ${unparsed} of them unparsed`));
  // The server's flags need --judge: without a server they are refused, not ignored.
  const stray = await runCliAsync(["rescore", dir, "--judge-model", model, "--judge-retries", "1"]);
  assert.equal(stray.status, 2);
  assert.match(stray.stderr, /--judge-retries needs --judge URL/);
});
