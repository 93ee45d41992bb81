// Runs the study slice once under one execution mode and measures it: tokens from the answer log, time from the calls.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Question } from "../../src/corpus/index.ts";
import type { ChatRuntime, Generation, LoadedModel, ModelInfo, RuntimeOptions } from "../../src/llm/index.ts";
import { ANSWERS_FILE, openRunFolder, readAnswerLog, runStudy } from "../../src/runs/index.ts";
import type { BlogIndex, DesignId } from "../../src/designs/index.ts";
import type { ServerCounters } from "./server.ts";
import { countersDelta } from "./server.ts";
import { unionSeconds, type Interval } from "./stats.ts";

/** One execution mode: the study's settings that change how, never what, is computed. */
export interface Mode {
  readonly name: string;
  readonly parallel: number;
  readonly reuseCache: boolean;
  /** The parallel sequences share one context (batched decoding) instead of one context each. */
  readonly sharedContext: boolean;
  /** Where the model runs: in this process (default) or in llama-server (scripts/bench/server.ts). */
  readonly backend?: "llama-server";
  /** Runs of each prompt, sampled with seeds from --seed 0 (the model's sampling values); undefined: one greedy run. */
  readonly samples?: number;
}

// The benchmark's modes batch several sequences on one context; "-separate" gives each its own context, which keeps
// every greedy answer identical to one-at-a-time (batching may flip near-ties) at the cost of batching.
export const MODES: readonly Mode[] = [
  { name: "naive", parallel: 1, reuseCache: false, sharedContext: false },
  { name: "cache-reuse", parallel: 1, reuseCache: true, sharedContext: false },
  { name: "cache-reuse-x2", parallel: 2, reuseCache: true, sharedContext: true },
  { name: "cache-reuse-x4", parallel: 4, reuseCache: true, sharedContext: true },
  { name: "cache-reuse-x8", parallel: 8, reuseCache: true, sharedContext: true },
  { name: "cache-reuse-x8-separate", parallel: 8, reuseCache: true, sharedContext: false },
];

export interface Slice {
  readonly designs: readonly DesignId[];
  readonly questions: readonly Question[];
  readonly maxNewTokens: number;
}

/** What one run of one mode measured. */
export interface ModeSample {
  readonly tokensRead: number;
  readonly tokensEvaluated: number;
  readonly agentTokensRead: number;
  readonly agentTokensEvaluated: number;
  readonly tokensGenerated: number;
  /** runStudy's wall time minus the model's loading (the same for every mode, and not the study's work). */
  readonly seconds: number;
  /** Seconds during which at least one model call ran. */
  readonly busySeconds: number;
  /** Sum of the calls' own seconds (above busySeconds when calls overlap). */
  readonly callSeconds: number;
  readonly calls: number;
  /**
   * Seconds spent evaluating prompts and decoding new tokens, and the decoding steps (new tokens after each call's
   * first, which comes with its prompt): in process from each call's own timing, on llama-server from its counters.
   */
  readonly promptSeconds: number;
  readonly decodeSeconds: number;
  readonly decodeSteps: number;
  /** Runs that ended on a call the server refused (always 0 in process, where a failed run stops the benchmark). */
  readonly refusedRuns: number;
  /** Model calls of the agent designs' runs, and how many such runs. */
  readonly agentCalls: number;
  readonly agentRuns: number;
  /** Runs logged (questions x designs x samples). */
  readonly runs: number;
  /** "design question_id" (and " sample" for samples after the first) -> answer. */
  readonly answers: ReadonlyMap<string, string>;
  readonly info: ModelInfo;
}

export interface RunModeOptions {
  readonly mode: Mode;
  readonly slice: Slice;
  readonly index: BlogIndex;
  /** Loads the model afresh (runStudy disposes it after the run). */
  readonly load: () => Promise<LoadedModel>;
  /**
   * A server's own counters: with them, tokens generated, read and evaluated are the server's (which count the calls
   * it refused too: the answer log has no usage for those), and refused runs are counted instead of stopping the bench.
   */
  readonly counters?: () => Promise<ServerCounters>;
}

export async function runMode(o: RunModeOptions): Promise<ModeSample> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "blogqa-bench-"));
  const calls: TimedCall[] = [];
  let loadSeconds = 0;
  let info: ModelInfo | undefined;
  // Wraps the model so each call's interval is recorded: end when the call returns, start = end minus the
  // runtime's own CallRecord.seconds, so the interval is the model's time as the runtime measured it.
  const openModel = async (): Promise<LoadedModel> => {
    const started = performance.now();
    const model = await o.load();
    loadSeconds += (performance.now() - started) / 1000;
    info = model.info;
    return {
      ...pick(model),
      openRuntimes: async (count: number, options: RuntimeOptions) =>
        (await model.openRuntimes(count, options)).map((r) => timed(r, calls)),
    };
  };
  try {
    const before = await o.counters?.();
    const started = performance.now();
    const folder = openRunFolder(outDir, { fresh: true });
    await runStudy({
      folder,
      models: ["bench"],
      openModel,
      index: o.index,
      designs: o.slice.designs,
      questions: o.slice.questions,
      settings: {
        parallel: o.mode.parallel,
        reuseCache: o.mode.reuseCache,
        sharedContext: o.mode.sharedContext,
        maxNewTokens: o.slice.maxNewTokens,
        ...(o.mode.samples === undefined ? {} : { samples: o.mode.samples, seed: 0, sampling: "model" as const }),
      },
      fresh: true,
    }).finally(() => folder.close());
    const seconds = (performance.now() - started) / 1000 - loadSeconds;
    const served = before === undefined ? undefined : countersDelta(before, await o.counters!());
    const { records } = readAnswerLog(path.join(outDir, ANSWERS_FILE));
    const failed = records.filter((r) => r.outcome === "error");
    if (served === undefined && failed[0] !== undefined)
      throw new Error(`${o.mode.name}: ${failed[0].design} ${failed[0].question_id} failed: ${failed[0].error}`);
    const agents = records.filter((r) => r.design !== "workflow");
    const evaluated = (rs: typeof records) => rs.reduce((a, r) => a + (r.tokens_evaluated ?? Number.NaN), 0);
    const sum = (rs: typeof records, f: (r: (typeof records)[number]) => number) => rs.reduce((a, r) => a + f(r), 0);
    const timings = calls.flatMap((c) => (c.timing === undefined ? [] : [{ ...c.timing, generated: c.generated }]));
    return {
      tokensRead: served ? served.promptEvaluated + served.promptCached : sum(records, (r) => r.tokens_read),
      tokensEvaluated: served ? served.promptEvaluated : evaluated(records),
      // Per design the server's counters cannot tell, and a refused run's log has no usage: unknown.
      agentTokensRead: served ? Number.NaN : sum(agents, (r) => r.tokens_read),
      agentTokensEvaluated: served ? Number.NaN : evaluated(agents),
      tokensGenerated: served ? served.generated : sum(records, (r) => r.tokens_generated),
      seconds,
      busySeconds: unionSeconds(calls),
      callSeconds: calls.reduce((a, i) => a + (i.end - i.start), 0),
      calls: calls.length,
      promptSeconds: served ? served.promptSeconds : timings.reduce((a, t) => a + t.promptSeconds, 0),
      decodeSeconds: served ? served.decodeSeconds : timings.reduce((a, t) => a + t.decodeSeconds, 0),
      // The server counts every new token; a call's first came with its prompt, as in process.
      decodeSteps: served
        ? served.generated - calls.length
        : timings.reduce((a, t) => a + Math.max(0, t.generated - 1), 0),
      refusedRuns: failed.length,
      agentCalls: sum(agents, (r) => r.model_calls),
      agentRuns: agents.length,
      runs: records.length,
      answers: new Map(records.map((r) => [`${r.design} ${r.question_id}${r.sample ? ` ${r.sample}` : ""}`, r.answer])),
      info: info!,
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The model's own members, bound (a class instance's methods do not survive a spread). */
function pick(model: LoadedModel): LoadedModel {
  return {
    info: model.info,
    template: model.template,
    openRuntimes: (count, options) => model.openRuntimes(count, options),
    renderPrompt: (request) => model.renderPrompt(request),
    countTokens: (text) => model.countTokens(text),
    dispose: () => model.dispose(),
  };
}

/** One model call as the bench saw it: its interval, new tokens, and the runtime's own timing where it has one. */
interface TimedCall extends Interval {
  readonly generated: number;
  readonly timing: Generation["timing"];
}

function timed(runtime: ChatRuntime, calls: TimedCall[]): ChatRuntime {
  return {
    generate: async (request) => {
      const generation = await runtime.generate(request);
      const end = performance.now() / 1000;
      const { record, timing } = generation;
      calls.push({ start: end - record.seconds, end, generated: record.tokensGenerated, timing });
      return generation;
    },
  };
}
