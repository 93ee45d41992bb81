// `rescore --judge` from the command line against a stand-in judge on 127.0.0.1, reached as any run's server model in
// chat mode: the exchange it logs, the table and kappa, resuming without judging a run twice, and a bad reply as one
// line that loses nothing already judged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";
import { startFakeServer, type CompletionCall, type FakeAnswer } from "../helpers/fake-openai-server.ts";
import { JUDGE_FIXTURE, scriptedVerdict, writeJudgeFixture } from "../helpers/judgments.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const folder = tempFolders("blogqa-judge-cli");

/** A chat completion whose message is `content`, as an OpenAI-compatible server sends it. */
const completion = (content: string): FakeAnswer => ({
  json: {
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 200, completion_tokens: 2, total_tokens: 202 },
  },
});
const scripted = (call: CompletionCall): FakeAnswer => completion(scriptedVerdict(call.body));
/** The stand-in serves the judge's model id at /v1/models, as a server must for the model to be opened. */
const judgeServer = (answer: (call: CompletionCall) => FakeAnswer) => startFakeServer(answer, { modelId: "judge-1b" });

const judgmentsOf = (dir: string) =>
  readFileSync(path.join(dir, "judgments.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const NO_STACK = /\n\s+at /;

test("rescore --judge logs each exchange, writes the judge's table and kappa, and resumes without judging twice", async () => {
  const server = await judgeServer(scripted);
  try {
    const dir = folder("judged");
    await writeJudgeFixture(dir);
    const env = { BLOGQA_JUDGE_KEY: "sk-judge-secret" };
    const args = ["rescore", dir, "--judge", server.url, "--judge-model", "judge-1b"];
    const first = await runCliInProcess([...args, "--judge-api-key-env", "BLOGQA_JUDGE_KEY"], { env });
    assert.equal(first.status, 0, first.stderr);
    // Six runs have facts; the two runs of f1 (no facts) are not asked about.
    assert.equal(server.calls.length, JUDGE_FIXTURE.length);
    assert.ok(server.calls.every((c) => c.path === "/v1/chat/completions"));
    assert.ok(server.calls.every((c) => c.headers.authorization === "Bearer sk-judge-secret"));
    const lines = judgmentsOf(dir);
    assert.equal(lines.length, JUDGE_FIXTURE.length);
    for (const [i, line] of lines.entries()) {
      const call = server.calls[i]!;
      // The whole exchange: what was sent, byte for byte as the server read it, what came back, and the verdict.
      assert.deepEqual(line.request, call.body);
      assert.deepEqual(line.response, completion(scriptedVerdict(call.body)).json);
      assert.equal(line.reply, scriptedVerdict(call.body));
      assert.equal(line.judge_model, "judge-1b");
      assert.equal(line.judge_url, server.url);
      assert.equal(call.body.temperature, 0);
      // Greedy with no repetition penalty, in the fields every greedy request of the server runtime carries.
      assert.equal(call.body.top_k, 1);
      assert.equal(call.body.repeat_penalty, 1);
      assert.equal(call.body.max_tokens, 16);
      assert.equal(call.body.model, "judge-1b");
      assert.ok(typeof call.body.seed === "number" && typeof call.body.max_tokens === "number");
    }
    assert.deepEqual(
      lines.map((l) => [l.design, l.question_id, l.verdict]),
      [
        ["workflow", "f4", "supported"],
        ["workflow", "f5", "unsupported"],
        ["workflow", "f6", "supported"],
        ["agent", "f4", "unparsed"],
        ["agent", "f5", "unsupported"],
        ["agent", "f6", "supported"],
      ],
    );
    const file = readFileSync(path.join(dir, "judgments.jsonl"), "utf8");
    assert.ok(
      !file.includes("sk-judge-secret") && !first.stderr.includes("sk-judge-secret"),
      "the key is never logged",
    );
    // The table, printed and in tables.md: workflow a = 2, d = 1, kappa 1; agent b = 1, c = 1, kappa -1, one unparsed.
    const workflowRow = "| small | one retrieval, one answer | 3 | 3 | 2 | 1 | 0 | 3/3 | 1.00 |";
    const agentRow = /\| small \| [^|]+ \| 3 \| 3 \| 1 \| 1 \| 1 \| 0\/2 \| -1\.00 \|/;
    const tables = readFileSync(path.join(dir, "tables.md"), "utf8");
    for (const text of [first.stdout, tables]) {
      assert.ok(text.includes(workflowRow), text);
      assert.match(text, agentRow);
    }
    assert.match(tables, /Answers and evidence \(one-post questions\)/);
    assert.ok(existsSync(path.join(dir, "judge.csv")));
    assert.match(first.stderr, /judged 6 runs, 1 of them unparsed/);

    // Again: nothing new is asked, and the file is as it was.
    const again = await runCliInProcess([...args, "--judge-api-key-env", "BLOGQA_JUDGE_KEY"], { env });
    assert.equal(again.status, 0, again.stderr);
    assert.equal(server.calls.length, JUDGE_FIXTURE.length, "a judged run is not judged again");
    assert.equal(readFileSync(path.join(dir, "judgments.jsonl"), "utf8"), file);
    assert.match(again.stderr, /judging 0 runs .*\(6 judged before\)/);

    // Cut off inside the fifth line (an interrupted write): the torn line and the sixth are judged again, once each.
    const cut = file.split("\n").slice(0, 4).join("\n").length + 1 + 30;
    truncateSync(path.join(dir, "judgments.jsonl"), cut);
    const resumed = await runCliInProcess([...args, "--judge-api-key-env", "BLOGQA_JUDGE_KEY"], { env });
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.match(resumed.stderr, /judgments\.jsonl:5: dropped a torn last line/);
    assert.equal(server.calls.length, JUDGE_FIXTURE.length + 2);
    // The same six judgments, one each (only the time each took may differ).
    const timeless = (lines: Record<string, unknown>[]) => lines.map(({ seconds: _, ...rest }) => rest);
    assert.deepEqual(timeless(judgmentsOf(dir)), timeless(lines));
  } finally {
    await server.kill();
  }
});

test("a judge URL's credentials go in a header, never into judgments.jsonl", async () => {
  const server = await judgeServer(scripted);
  try {
    const dir = folder("credentials");
    await writeJudgeFixture(dir);
    const url = server.url.replace("http://", "http://judge:pw-secret@");
    const result = await runCliInProcess(["rescore", dir, "--judge", url, "--judge-model", "judge-1b"]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(server.calls[0]!.headers.authorization, `Basic ${Buffer.from("judge:pw-secret").toString("base64")}`);
    assert.ok(judgmentsOf(dir).every((l) => l.judge_url === server.url));
    assert.ok(!readFileSync(path.join(dir, "judgments.jsonl"), "utf8").includes("pw-secret"));
  } finally {
    await server.kill();
  }
});

test("a bad reply or no server is one line naming the URL, and what was judged stays judged", async () => {
  let failure: FakeAnswer | undefined;
  // The first two requests are answered; after them, `failure` (when set) answers instead.
  const server = await judgeServer((call) => (call.n > 2 && failure !== undefined ? failure : scripted(call)));
  const dir = folder("bad-replies");
  await writeJudgeFixture(dir);
  const args = ["rescore", dir, "--judge", server.url, "--judge-model", "judge-1b", "--judge-retries", "0"];
  const url = server.url.replace(/[./]/g, "\\$&");
  const expectFailure = async (what: RegExp) => {
    const result = await runCliInProcess(args);
    assert.equal(result.status, 1, result.stderr);
    // One line for the error, the last on stderr (after the line saying what is being judged), and no stack.
    const errors = result.stderr.split("\n").filter((l) => l.startsWith("blogqa: "));
    assert.equal(errors.length, 1, result.stderr);
    assert.equal(result.stderr.trimEnd().split("\n").at(-1), errors[0]);
    assert.match(errors[0]!, new RegExp(`^blogqa: rescore --judge: ${what.source}`));
    assert.match(errors[0]!, /The 2 judgments are kept in .*judgments\.jsonl: run the same command again to resume\.$/);
    assert.doesNotMatch(result.stderr, NO_STACK);
    assert.equal(judgmentsOf(dir).length, 2, "nothing already judged is lost");
  };
  try {
    failure = { status: 500, json: { error: { message: "the judge fell over", type: "server_error" } } };
    // The call's failure as the server runtime words it for any run, and the run being judged.
    const judging = (failure: string) => new RegExp(`the judge at ${url} failed: server: ${failure}.* \\(judging `);
    await expectFailure(judging("HTTP 500: the judge fell over"));
    failure = { json: null, raw: "<html>Bad gateway</html>" };
    await expectFailure(judging("HTTP 200: not JSON: <html>Bad gateway</html>"));
    failure = { json: { object: "chat.completion", choices: [] } };
    await expectFailure(judging("the answer has no choices\\[0\\]\\.message with a text content"));
    await server.kill();
    // No server: the judge's model cannot be opened, as a run's could not, and the flag to check is --judge.
    await expectFailure(new RegExp(`No OpenAI-compatible server answered at ${url}/models: check --judge `));
    // The server back and answering: the four runs left are judged, the first two are not asked about again.
    failure = undefined;
    await server.restart();
    const before = server.calls.length;
    const finished = await runCliInProcess(args);
    assert.equal(finished.status, 0, finished.stderr);
    assert.equal(server.calls.length - before, JUDGE_FIXTURE.length - 2);
    assert.deepEqual(
      judgmentsOf(dir).map((l) => `${l.design} ${l.question_id}`),
      JUDGE_FIXTURE.map((f) => `${f.design} ${f.id}`),
    );
  } finally {
    await server.kill().catch(() => {});
  }
});

test("a server gone while judging stops the judge in one line; the judgments before it are kept", async () => {
  // The third request is never answered: the server goes away with it, as a crashed server would.
  let server: Awaited<ReturnType<typeof judgeServer>> | undefined;
  server = await judgeServer((call) => {
    if (call.n !== 3) return scripted(call);
    void server?.kill();
    return { ...scripted(call), delayMs: 60_000 };
  });
  try {
    const dir = folder("gone");
    await writeJudgeFixture(dir);
    const result = await runCliInProcess([
      "rescore",
      dir,
      "--judge",
      server.url,
      "--judge-model",
      "judge-1b",
      "--judge-retries",
      "0",
    ]);
    assert.equal(result.status, 1, result.stderr);
    const errors = result.stderr.split("\n").filter((l) => l.startsWith("blogqa: "));
    assert.equal(errors.length, 1, result.stderr);
    assert.match(errors[0]!, /^blogqa: rescore --judge: The server at \S+ did not answer after 1 tries/);
    assert.match(errors[0]!, /\(judging model small\.gguf, design workflow, question f6\)/);
    assert.match(errors[0]!, /The 2 judgments are kept in .*judgments\.jsonl: run the same command again to resume\.$/);
    assert.doesNotMatch(result.stderr, NO_STACK);
    assert.equal(judgmentsOf(dir).length, 2);
  } finally {
    await server.kill().catch(() => {});
  }
});

test("--judge needs --judge-model, and a folder whose questions have no facts is refused", async () => {
  const dir = folder("usage");
  await writeJudgeFixture(dir);
  const alone = await runCliInProcess(["rescore", dir, "--judge", "http://127.0.0.1:9/v1"]);
  assert.equal(alone.status, 2);
  assert.match(alone.stderr, /--judge URL needs --judge-model NAME/);
  const retries = await runCliInProcess(["rescore", dir, "--judge-retries", "1"]);
  assert.equal(retries.status, 2);
  assert.match(retries.stderr, /--judge-retries needs --judge URL/);
  // Without facts there is nothing to compare the judge with: refused before any request.
  const answers = path.join(dir, "answers.jsonl");
  const lines = readFileSync(answers, "utf8").trim().split("\n");
  writeFileSync(answers, lines.map((l) => `${JSON.stringify({ ...JSON.parse(l), facts: undefined })}\n`).join(""));
  const none = await runCliInProcess(["rescore", dir, "--judge", "http://127.0.0.1:9/v1", "--judge-model", "j"]);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no run of .* has a question with key facts/);
  assert.doesNotMatch(none.stderr, NO_STACK);
});
