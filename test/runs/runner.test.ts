// The runner's promises: resumable, order-stable under parallelism, one process per folder, torn lines tolerated.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, appendFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { planStripes, type RunnerSettings } from "../../src/runs/runner.ts";
import { acquireRunLock } from "../../src/runs/run-lock.ts";
import { readAnswerLog } from "../../src/runs/answer-log.ts";
import type { ChatRuntime, Generation, LoadedModel } from "../../src/llm/types.ts";
import { compileChatTemplate } from "../../src/llm/chat-template.ts";
import type { Question } from "../../src/corpus/types.ts";
import { fakeIndex } from "../helpers/scripted-runtime.ts";
import { runStudyIn } from "../helpers/run-in-folder.ts";
import { DEFAULT_WORDING, parseWordings, type Wording } from "../../src/designs/index.ts";

const QUESTIONS: Question[] = Array.from({ length: 6 }, (_, i) => ({
  id: `q${i + 1}`,
  question: `Question ${i + 1} about the running maximum?`,
  post: "flashattention-explained",
  heading: "The online softmax",
}));
const SETTINGS: RunnerSettings = { parallel: 1, reuseCache: true, sharedContext: false, maxNewTokens: 200 };

/** What every fake model here has besides its runtimes: a Hermes-style template, no tokenizer, nothing to dispose. */
function stubModelParts(): Omit<LoadedModel, "openRuntimes"> {
  return {
    info: { decoding: { generationConfig: null } } as unknown as LoadedModel["info"],
    template: compileChatTemplate("{{ '<tool_call>' }}", "a Hermes-style test template"),
    renderPrompt: () => "",
    countTokens: () => 0,
    dispose: async () => {},
  };
}

/** Replies depend only on the prompt (like greedy decoding); odd questions search once; calls take varying time. */
function fakeModel(options: { failAfterCalls?: number } = {}): LoadedModel & { calls: number; seeds: number[] } {
  const model = {
    calls: 0,
    seeds: [] as number[],
    ...stubModelParts(),
    async openRuntimes(count: number): Promise<ChatRuntime[]> {
      return Array.from({ length: count }, () => ({
        async generate(request) {
          model.calls++;
          if (request.sampling !== undefined) model.seeds.push(request.sampling.seed);
          if (options.failAfterCalls !== undefined && model.calls > options.failAfterCalls) throw new Error("killed");
          const prompt = request.messages.map((m) => m.content).join("|") + (request.prefix ?? "");
          await new Promise((resolve) => setTimeout(resolve, (prompt.length * 7) % 13));
          const odd = /Question [135] /.test(prompt);
          const searched = request.messages.some((m) => m.role === "tool");
          const text =
            request.tools && odd && !searched
              ? `${request.prefix ?? ""}<tool_call>{"name": "search_posts", "arguments": {"query": "running maximum"}}</tool_call>`
              : `${request.prefix ?? ""}Answer to ${prompt.length}. Source: flashattention-explained`;
          return {
            prompt,
            text,
            record: {
              tokensRead: prompt.length,
              tokensEvaluated: prompt.length,
              tokensGenerated: 9,
              stopReason: "eos",
              seconds: Math.random(),
            },
          };
        },
      }));
    },
  };
  return model;
}

const tempDir = () => mkdtempSync(path.join(tmpdir(), "blogqa-runner-"));
/** The log's lines, parsed. */
const logLines = (dir: string) =>
  readFileSync(path.join(dir, "answers.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
/** The log without its timing fields, which are the only things allowed to differ between runs. */
const stable = (dir: string) =>
  logLines(dir).map((record) => JSON.stringify(record, (key, value) => (key === "seconds" ? 0 : value)));

async function run(
  dir: string,
  model: LoadedModel,
  settings: Partial<RunnerSettings> = {},
  wordings?: readonly Wording[],
) {
  const designs = ["workflow", "agent", "agent-forced"] as const;
  return runStudyIn(dir, {
    models: ["m1", "m2"],
    designs,
    ...(wordings !== undefined ? { wordings } : {}),
    questions: QUESTIONS,
    openModel: async () => model,
    index: fakeIndex(),
    settings: { ...SETTINGS, ...settings },
  });
}

test("every (model, design, question) is logged once, in plan order", async () => {
  const dir = tempDir();
  const summary = await run(dir, fakeModel());
  assert.deepEqual([summary.ran, summary.skipped], [36, 0]);
  const { records } = readAnswerLog(summary.answersFile);
  assert.deepEqual(
    records.slice(0, 7).map((r) => `${r.model} ${r.design} ${r.question_id}`),
    [
      "m1 workflow q1",
      "m1 workflow q2",
      "m1 workflow q3",
      "m1 workflow q4",
      "m1 workflow q5",
      "m1 workflow q6",
      "m1 agent q1",
    ],
  );
  assert.equal(records.find((r) => r.design === "agent" && r.question_id === "q1")?.model_calls, 2);
});

test("--parallel 4 writes the same log as --parallel 1", async () => {
  const one = tempDir();
  const four = tempDir();
  await run(one, fakeModel());
  await run(four, fakeModel(), { parallel: 4 });
  assert.deepEqual(stable(four), stable(one));
});

test("a run killed mid-way resumes where it stopped: same log, nothing duplicated, finished runs not redone", async () => {
  const whole = tempDir();
  await run(whole, fakeModel());
  const broken = tempDir();
  await assert.rejects(run(broken, fakeModel({ failAfterCalls: 10 }), { parallel: 3 }), /killed/);
  const before = readAnswerLog(path.join(broken, "answers.jsonl")).records.length;
  assert.ok(before > 0 && before < 36, `expected a partial log, got ${before} lines`);
  const model = fakeModel();
  const summary = await run(broken, model, { parallel: 2 });
  assert.deepEqual([summary.ran, summary.skipped], [36 - before, before]);
  assert.deepEqual(stable(broken), stable(whole));
});

test("--parallel 4 logs each run as it finishes: a run killed while one runtime is slow keeps the others' results", async () => {
  // Runtime 0 answers only once the other three have logged six runs between them (or after a second, so a runner
  // that holds finished runs back until the earlier ones are done fails the assertion instead of hanging).
  const dir = tempDir();
  const logged = () => {
    try {
      return readAnswerLog(path.join(dir, "answers.jsonl")).records.length;
    } catch {
      return 0;
    }
  };
  let seenWhileSlow = 0;
  const slowUntilLogged = (async () => {
    for (const start = Date.now(); logged() < 6 && Date.now() - start < 1000; )
      await new Promise((resolve) => setTimeout(resolve, 5));
    seenWhileSlow = logged();
  })();
  const { model } = assignmentModel(async (runtime) => {
    if (runtime === 0) {
      await slowUntilLogged;
      throw new Error("killed");
    }
  });
  await assert.rejects(runAssigned(dir, model, 4, QUESTIONS), /killed/);
  assert.ok(seenWhileSlow >= 6, `${seenWhileSlow} runs logged while the first stripe's first run was still going`);
  const before = logged();
  assert.ok(before >= 6 && before < 12, `${before} runs logged, of 12`);
  // Resumed at --parallel 1: only the runs not logged are redone, and the log is in plan order, as an uninterrupted run's.
  const resumed = await runAssigned(dir, assignmentModel().model, 1, QUESTIONS);
  assert.deepEqual([resumed.ran, resumed.skipped], [12 - before, before]);
  const whole = tempDir();
  await runAssigned(whole, assignmentModel().model, 1, QUESTIONS);
  assert.deepEqual(stable(dir), stable(whole));
});

test("a torn last line (interrupted write) is dropped and redone", async () => {
  const whole = tempDir();
  await run(whole, fakeModel());
  const dir = tempDir();
  const lines = readFileSync(path.join(whole, "answers.jsonl"), "utf8").split("\n");
  writeFileSync(path.join(dir, "answers.jsonl"), `${lines.slice(0, 5).join("\n")}\n`);
  appendFileSync(path.join(dir, "answers.jsonl"), lines[5]!.slice(0, 40));
  const summary = await run(dir, fakeModel());
  assert.deepEqual([summary.ran, summary.skipped], [31, 5]);
  assert.deepEqual(stable(dir), stable(whole));
});

test("a second process on the same folder is refused; a lock left by a dead process is taken over", async () => {
  const dir = tempDir();
  const release = acquireRunLock(dir);
  await assert.rejects(run(dir, fakeModel()), /in use by another blogqa run \(pid \d+, lock file .*\.lock\)/);
  release();
  writeFileSync(path.join(dir, ".lock"), "999999999");
  const summary = await run(dir, fakeModel());
  assert.equal(summary.ran, 36);
});

test("a corrupt or duplicated line stops the run with its line number", async () => {
  const whole = tempDir();
  await run(whole, fakeModel());
  const [first, second] = readFileSync(path.join(whole, "answers.jsonl"), "utf8").split("\n");
  const dir = tempDir();
  writeFileSync(path.join(dir, "answers.jsonl"), `${first}\nnot json\n${second}\n`);
  await assert.rejects(run(dir, fakeModel()), /answers\.jsonl:2: not a JSON line/);
  writeFileSync(path.join(dir, "answers.jsonl"), `${first}\n${second}\n${first}\n`);
  await assert.rejects(
    run(dir, fakeModel()),
    /answers\.jsonl:3: a second line for model m1, design workflow, question q1 \(first on line 1\)/,
  );
});

test("a model's own settings (a suite entry's tool-call format) apply to that model alone", async () => {
  const dir = tempDir();
  const said: string[] = [];
  const forced: Record<string, string[]> = { m1: [], m2: [] };
  await runStudyIn(dir, {
    models: ["m1", "m2"],
    designs: ["agent-forced"],
    questions: QUESTIONS.slice(0, 1),
    openModel: async (id) => {
      const model = fakeModel();
      const open = model.openRuntimes.bind(model);
      model.openRuntimes = async (count, options) =>
        (await open(count, options)).map((r) => ({
          generate: (request) => {
            forced[id]!.push(request.prefix ?? "");
            return r.generate(request);
          },
        }));
      return model;
    },
    index: fakeIndex(),
    settings: SETTINGS,
    entryOf: (id) => (id === "m2" ? { id: "m2", model: "m2", paramsB: 1, toolFormat: "llama3" } : undefined),
    onProgress: (line) => said.push(line),
  });
  assert.ok(said.includes("m1: tool-call format hermes (the template writes <tool_call>)"), said.join("\n"));
  assert.ok(said.includes("m2: tool-call format llama3 (the model's own tool_format)"), said.join("\n"));
  // The forced first reply starts with each format's own prefix.
  assert.equal(forced.m1![0], "<tool_call>\n");
  assert.equal(forced.m2![0], '{"name": "');
});

test("--samples 3 logs three lines per key, samples in order, each prompt's samples one after another", async () => {
  const dir = tempDir();
  const summary = await run(dir, fakeModel(), { samples: 3, parallel: 2 });
  assert.deepEqual([summary.ran, summary.skipped], [108, 0]);
  const lines = logLines(dir);
  assert.deepEqual(
    lines.slice(0, 4).map((r) => `${r.design} ${r.question_id} ${r.sample ?? "-"}`),
    ["workflow q1 -", "workflow q1 1", "workflow q1 2", "workflow q2 -"],
  );
});

test("--samples 1 writes the log it wrote before samples existed; --samples 2 on it runs only the new samples", async () => {
  const dir = tempDir();
  await run(dir, fakeModel());
  const one = stable(dir);
  assert.ok(
    one.every((l) => !("sample" in JSON.parse(l)) && !("wording" in JSON.parse(l)) && !("seed" in JSON.parse(l))),
  );
  const summary = await run(dir, fakeModel(), { samples: 2 });
  assert.deepEqual([summary.ran, summary.skipped], [36, 36]);
  // The earlier lines are kept byte for byte; the log is back in plan order, each run's samples together.
  assert.deepEqual(
    stable(dir).filter((l) => !("sample" in JSON.parse(l))),
    one,
  );
  assert.deepEqual(
    logLines(dir)
      .slice(0, 3)
      .map((r) => `${r.design} ${r.question_id} ${r.sample ?? "-"}`),
    ["workflow q1 -", "workflow q1 1", "workflow q2 -"],
  );
});

test("two wordings double the runs; each line names its wording but the default's, and its prompts are its own", async () => {
  const [terse] = parseWordings([{ id: "terse", system: "Answer with the tools.", workflow_system: "Answer." }], "w");
  const dir = tempDir();
  const model = fakeModel();
  const summary = await run(dir, model, {}, [DEFAULT_WORDING, terse!]);
  assert.deepEqual([summary.ran, summary.skipped], [72, 0]);
  const lines = logLines(dir);
  assert.deepEqual(
    lines.slice(5, 8).map((r) => `${r.design} ${r.wording ?? "-"} ${r.question_id}`),
    ["workflow - q6", "workflow terse q1", "workflow terse q2"],
  );
  const system = (r: { transcript: { calls: { messages: { content: string }[] }[] } }) =>
    r.transcript.calls[0]!.messages[0]!.content;
  assert.match(system(lines[6]), /^Answer\. End your answer/);
  assert.match(system(lines.find((r) => r.design === "agent" && r.wording === "terse")), /^Answer with the tools\./);
  // The default wording's lines are those of a run without --wordings.
  const plain = tempDir();
  await run(plain, fakeModel());
  const stableLines = stable(dir).filter((l) => !("wording" in JSON.parse(l)));
  assert.deepEqual(stableLines, stable(plain));
});

/**
 * A model whose runtimes answer at once (no tool call: one call per run) and note which run each call was, by
 * runtime; `gate(i)` is awaited before runtime i answers, so a test decides which runtime is slow.
 */
function assignmentModel(gate: (runtime: number) => Promise<void> = async () => {}) {
  const ran: string[][] = [];
  const model: LoadedModel = {
    ...stubModelParts(),
    async openRuntimes(count: number): Promise<ChatRuntime[]> {
      return Array.from({ length: count }, (_, i) => {
        ran.push([]);
        return {
          async generate(request) {
            const prompt = request.messages.map((m) => m.content).join("|");
            const question = /Question (\d+) /.exec(prompt)?.[1];
            ran[i]!.push(`${request.tools ? "agent" : "workflow"} q${question}`);
            await gate(i);
            const text = `Answer ${question}. Source: flashattention-explained`;
            const record = { tokensRead: 1, tokensEvaluated: 1, tokensGenerated: 1, stopReason: "eos", seconds: 0 };
            return { prompt, text, record: record as Generation["record"] };
          },
        };
      });
    },
  };
  return { model, ran };
}

const runAssigned = (dir: string, model: LoadedModel, parallel: number, questions = QUESTIONS.slice(0, 4)) =>
  runStudyIn(dir, {
    models: ["m1"],
    designs: ["workflow", "agent"],
    questions,
    openModel: async () => model,
    index: fakeIndex(),
    settings: { ...SETTINGS, parallel },
  });

test("each runtime runs its own contiguous stripe of the plan, so one design's runs share a sequence", async () => {
  // Every call waits a turn of the event loop: the runtimes keep pace, and none finishes its stripe early.
  const { model, ran } = assignmentModel(() => new Promise((resolve) => setImmediate(resolve)));
  await runAssigned(tempDir(), model, 4);
  assert.deepEqual(ran, [
    ["workflow q1", "workflow q2"],
    ["workflow q3", "workflow q4"],
    ["agent q1", "agent q2"],
    ["agent q3", "agent q4"],
  ]);
});

test("a runtime done with its stripe takes the last run of the longest stripe left; the log stays in plan order", async () => {
  // Runtime 0 answers its first call only once runtime 1 has made five (or after a second, so that a runner that
  // never lends runtime 1 another stripe's runs fails the assertion instead of hanging).
  let fastCalls = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, 1000).unref();
  });
  const { model, ran } = assignmentModel(async (runtime) => {
    if (runtime === 0) return released;
    if (++fastCalls === 5) release();
  });
  const dir = tempDir();
  await runAssigned(dir, model, 2, QUESTIONS.slice(0, 3));
  // Stripes: workflow q1-q3 for runtime 0, agent q1-q3 for runtime 1, which then takes workflow q3 and q2.
  assert.deepEqual(ran, [["workflow q1"], ["agent q1", "agent q2", "agent q3", "workflow q3", "workflow q2"]]);
  const { records } = readAnswerLog(path.join(dir, "answers.jsonl"));
  assert.deepEqual(
    records.map((r) => `${r.design} ${r.question_id}`),
    ["workflow q1", "workflow q2", "workflow q3", "agent q1", "agent q2", "agent q3"],
  );
  const one = tempDir();
  await runAssigned(one, assignmentModel().model, 1, QUESTIONS.slice(0, 3));
  assert.deepEqual(stable(dir), stable(one));
});

test("planStripes cuts the plan into contiguous stripes whose lengths differ by one at most", () => {
  assert.deepEqual(planStripes(5, 2), [
    [0, 1, 2],
    [3, 4],
  ]);
  assert.deepEqual(planStripes(16, 8), [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
    [8, 9],
    [10, 11],
    [12, 13],
    [14, 15],
  ]);
  assert.deepEqual(planStripes(3, 3), [[0], [1], [2]]);
  assert.deepEqual(planStripes(7, 1), [[0, 1, 2, 3, 4, 5, 6]]);
});
