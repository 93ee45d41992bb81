// Runs the study: every (model, design, question) not yet in answers.jsonl, K at a time, logged in plan order.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Question } from "../corpus/index.ts";
import type { ChatRuntime, LoadedModel } from "../llm/index.ts";
import { answerRecord } from "./answer-record.ts";
import { ANSWERS_FILE, appendAnswer, dropTornTail, readAnswerLog, runKey } from "./answer-log.ts";
import { acquireRunLock } from "./run-lock.ts";
import type { BlogIndex } from "../designs/index.ts";
import type { AnswerRecord } from "./answer-types.ts";
import type { Transcript, DesignId } from "../designs/index.ts";
import { runDesign, withMaxTokens } from "../designs/index.ts";
import type { RunSettings } from "./settings.ts";
import type { OnTick } from "../common/index.ts";
import { modelDialect, type ToolDialect } from "../toolcalls/index.ts";
import { modelThinking } from "../designs/index.ts";

/** The settings the runner itself reads (the others shape the search index and the model it is given). */
export type RunnerSettings = Pick<RunSettings, "parallel" | "reuseCache" | "sharedContext" | "maxNewTokens"> &
  Partial<Pick<RunSettings, "toolFormat" | "thinking">>;

export interface RunStudyOptions {
  readonly outDir: string;
  readonly models: readonly string[];
  readonly openModel: (id: string) => Promise<LoadedModel>;
  readonly index: BlogIndex;
  readonly designs: readonly DesignId[];
  readonly questions: readonly Question[];
  readonly settings: RunnerSettings;
  /** A model's own settings where its suite entry sets some (its tool-call format); default: `settings` for all. */
  readonly settingsFor?: (model: string) => RunnerSettings;
  /**
   * Runs once the folder's lock is held, before its log is read: where `run --fresh` checks that the first model
   * loads and only then clears the folder.
   */
  readonly beforeStart?: () => Promise<void>;
  readonly onProgress?: (line: string) => void;
  /** Counts runs done of each model's pending runs; when given, a run that went well gets no line of its own. */
  readonly onTick?: OnTick;
}

export interface StudyRunSummary {
  readonly answersFile: string;
  readonly ran: number;
  readonly skipped: number;
}

interface Task {
  readonly design: DesignId;
  readonly question: Question;
}

export async function runStudy(options: RunStudyOptions): Promise<StudyRunSummary> {
  const { outDir, settings } = options;
  const progress = options.onProgress ?? (() => {});
  mkdirSync(outDir, { recursive: true });
  const release = acquireRunLock(outDir, progress);
  try {
    const file = path.join(outDir, ANSWERS_FILE);
    await options.beforeStart?.();
    const log = readAnswerLog(file);
    if (log.tornLine !== undefined)
      progress(`${file}:${log.tornLine}: dropped a torn last line (an interrupted write); that run will be redone`);
    dropTornTail(file, log);
    const done = new Set(log.records.map(runKey));

    let ran = 0;
    let skipped = 0;
    for (const model of options.models) {
      const plan = options.designs.flatMap((design) => options.questions.map((question) => ({ design, question })));
      const pending = plan.filter((t) => !done.has(runKey({ model, design: t.design, question_id: t.question.id })));
      skipped += plan.length - pending.length;
      if (pending.length === 0) {
        progress(`${model}: all ${plan.length} runs already in ${file}`);
        continue;
      }
      progress(
        `${model}: ${pending.length} runs to do${plan.length > pending.length ? ` (${plan.length - pending.length} already done)` : ""}`,
      );
      const loaded = await options.openModel(model);
      try {
        const own = options.settingsFor?.(model) ?? settings;
        const { dialect, reason } = modelDialect(loaded, own.toolFormat ?? "auto");
        const fromEntry = own.toolFormat !== settings.toolFormat && own.toolFormat !== "auto";
        progress(
          `${model}: tool-call format ${dialect.format} (${fromEntry ? "the model's own tool_format" : reason})`,
        );
        const thinking = modelThinking(loaded, own.thinking ?? false);
        if (thinking.note !== undefined) progress(`${model}: ${thinking.note}`);
        const runtimes = await loaded.openRuntimes(Math.min(settings.parallel, pending.length), {
          reuseCache: settings.reuseCache,
          sharedContext: settings.sharedContext,
        });
        await runInOrder(
          pending,
          runtimes.map((r) => thinking.wrap(withMaxTokens(r, settings.maxNewTokens))),
          options.index,
          { dialect, thinks: thinking.thinks },
          (task, transcript, i) => {
            const record = answerRecord(model, task.design, task.question, transcript);
            appendAnswer(file, record);
            ran++;
            if (options.onTick === undefined || record.outcome === "error")
              progress(`${i + 1}/${pending.length} ${describeRun(record)}`);
            options.onTick?.({
              task: `runs of ${path.basename(model)}`,
              done: i + 1,
              total: pending.length,
              unit: "runs",
              detail: `${record.design} ${record.question_id}`,
            });
          },
        );
      } finally {
        await loaded.dispose();
      }
    }
    return { answersFile: file, ran, skipped };
  } finally {
    release();
  }
}

/**
 * Runs tasks on several runtimes at once but hands results over in task order, so that the log is the same
 * whatever the parallelism and wherever an interrupted run resumed.
 */
async function runInOrder(
  tasks: readonly Task[],
  runtimes: readonly ChatRuntime[],
  index: BlogIndex,
  format: { readonly dialect: ToolDialect; readonly thinks: boolean },
  onDone: (task: Task, transcript: Transcript, index: number) => void,
): Promise<void> {
  const finished = new Map<number, Transcript>();
  let nextToStart = 0;
  let nextToWrite = 0;
  const flush = () => {
    for (let t = finished.get(nextToWrite); t !== undefined; t = finished.get(nextToWrite)) {
      finished.delete(nextToWrite);
      onDone(tasks[nextToWrite]!, t, nextToWrite);
      nextToWrite++;
    }
  };
  let failed = false;
  const worker = async (runtime: ChatRuntime) => {
    while (!failed && nextToStart < tasks.length) {
      const position = nextToStart++;
      try {
        const task = tasks[position]!;
        finished.set(
          position,
          await runDesign(task.design, { question: task.question.question, runtime, index, dialect: format.dialect, thinks: format.thinks }),
        );
      } catch (error) {
        failed = true; // the other workers finish their current run and stop: nothing may write after we return
        throw error;
      }
      flush();
    }
  };
  const outcomes = await Promise.allSettled(runtimes.map(worker));
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failure) throw failure.reason;
}

function describeRun(r: AnswerRecord): string {
  const status = r.outcome === "error" ? `error: ${r.error}` : r.outcome;
  return `${r.design} ${r.question_id}: ${status}, ${r.model_calls} calls, ${r.tool_calls} tools, ${r.tokens_read} read, ${r.seconds.toFixed(1)} s`;
}
