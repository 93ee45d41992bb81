// Runs the study: every (model, design, question) not yet in the run folder, K at a time, logged in plan order.
import path from "node:path";
import { questionHeadings, questionPosts, type Question } from "../corpus/index.ts";
import type { ChatRuntime, LoadedModel } from "../llm/index.ts";
import { answerRecord } from "./answer-record.ts";
import { type AnswerRecord, serverRefused } from "./answer-types.ts";
import { type BlogIndex, type DesignId, type Transcript, DEFAULT_WORDING, type Wording } from "../designs/index.ts";
import { runKey, type RunIdentity } from "./answer-log.ts";
import type { RunFolder } from "./run-folder.ts";
import { modelEntryFields, type ModelEntry, type SettingsFor } from "./settings.ts";
import { UserError, type OnTick } from "../common/index.ts";
import { runRecipe, type RecipeSettings } from "./recipe.ts";
import { runTimer } from "./run-timer.ts";

/** The settings the runner reads: the recipe's, and those tagged "runner" in SETTING_OPTIONS (how runs are scheduled). */
export type RunnerSettings = RecipeSettings & SettingsFor<"runner">;

export interface RunStudyOptions {
  readonly folder: RunFolder;
  readonly models: readonly string[];
  readonly openModel: (id: string) => Promise<LoadedModel>;
  readonly index: BlogIndex;
  readonly designs: readonly DesignId[];
  /** The prompt wordings each design runs under (default: the study's alone). */
  readonly wordings?: readonly Wording[];
  readonly questions: readonly Question[];
  readonly settings: RunnerSettings;
  /** The suite's or --models file's entry of a model, where it has one (its label, size and own tool format). */
  readonly entryOf?: (model: string) => ModelEntry | undefined;
  /**
   * run --fresh: the folder is cleared once the first model has loaded, its format is placed and its contexts are
   * made, so that a run that cannot start removes nothing.
   */
  readonly fresh?: boolean;
  readonly onProgress?: (line: string) => void;
  /** Counts runs done of each model's pending runs; when given, a run that went well gets no line of its own. */
  readonly onTick?: OnTick;
  /**
   * The size of each model's weights in bytes where it can be known before loading (undefined: unknown), so that the
   * first model's warm-up can estimate the models after it.
   */
  readonly modelBytes?: (model: string) => number | undefined;
}

export interface StudyRunSummary {
  readonly answersFile: string;
  readonly ran: number;
  /** Of `ran`, the runs whose model call failed (outcome "error"): logged, never scored, retried by a resume. */
  readonly failed: number;
  /** Of `failed`, the runs a server refused in a way asking again cannot change: a resume skips them. */
  readonly refused: number;
  readonly skipped: number;
}

/** The exit status of a run in which some model call failed: the tables it printed are missing those runs. */
export const FAILED_RUNS_EXIT_CODE = 3;

/**
 * What ends a run whose calls failed (an HTTP 401, 404 or 5xx past the retries, a context overflow, a server's
 * refusal); else undefined.
 */
export function failedRunsError(summary: StudyRunSummary): UserError | undefined {
  const { failed, refused } = summary;
  if (failed === 0) return undefined;
  const retried =
    refused === 0
      ? "running the same command again retries them"
      : refused === failed
        ? "the server refused their last call, so running the same command again would not change them " +
          "(stopReason refused: the same request fails again)"
        : `running the same command again retries ${failed - refused} of them; the server refused the last call of ` +
          `the other ${refused}, which the same request would not change (stopReason refused)`;
  return new UserError(
    `${failed} of ${summary.ran} runs failed (their model call failed; outcome error in ${summary.answersFile}): ` +
      `they are left out of the tables, and ${retried}`,
    FAILED_RUNS_EXIT_CODE,
  );
}

/**
 * One prompt's runs: a design on a question, and the samples of it still to run. A worker runs them one after
 * another on its one sequence, so that with cache reuse the prompt they share is evaluated once for all of them.
 */
interface Task {
  readonly design: DesignId;
  readonly wording: Wording;
  readonly question: Question;
  readonly samples: readonly number[];
}

export async function runStudy(options: RunStudyOptions): Promise<StudyRunSummary> {
  const { folder, settings } = options;
  const progress = options.onProgress ?? (() => {});
  const samples = settings.samples ?? 1;
  let ran = 0;
  let failed = 0;
  let refused = 0;
  let skipped = 0;
  let cleared = !options.fresh;
  /** Each planned run's place in the log: model by model, in plan order. */
  const planOrder = new Map<string, number>();
  const plan = planRuns(options.designs, options.wordings ?? [DEFAULT_WORDING], options.questions, samples);
  const pendingOf = (model: string) => pendingTasks(plan, (t, sample) => folder.has(identity(model, t, sample)));
  /** The estimate's state: the models not yet started, and the speed (and size) of the first one measured. */
  const timer = runTimer(options, settings.maxNewTokens, pendingOf, progress);
  for (const model of options.models) {
    for (const task of plan)
      for (const sample of task.samples) planOrder.set(runKey(identity(model, task, sample)), planOrder.size);
    const pending = pendingOf(model);
    const planned = plan.length * samples;
    const toDo = pending.reduce((n, t) => n + t.samples.length, 0);
    skipped += planned - toDo;
    if (toDo === 0) {
      progress(`${model}: all ${planned} runs already in ${folder.answersFile}`);
      continue;
    }
    progress(`${model}: ${toDo} runs to do${planned > toDo ? ` (${planned - toDo} already done)` : ""}`);
    const loaded = await options.openModel(model);
    try {
      const entry = options.entryOf?.(model);
      const recipe = runRecipe(loaded, { settings, entry, designs: options.designs, index: options.index });
      for (const note of recipe.notes) progress(`${model}: ${note}`);
      const seedOf = (task: Task, sample: number) => recipe.seedOf(identity(model, task, sample));
      // Before the model's contexts take the memory: a warm-up on a small context of its own.
      await timer.warmUp(model, loaded);
      const runtimes = await loaded.openRuntimes(Math.min(settings.parallel, pending.length), {
        reuseCache: settings.reuseCache,
        sharedContext: settings.sharedContext,
      });
      if (!cleared) {
        folder.clear();
        cleared = true;
      }
      await folder.recordModel({
        ...loaded.info,
        toolFormat: recipe.dialect.format,
        ...(entry !== undefined ? { entry: modelEntryFields(entry) } : {}),
      });
      await runInOrder(
        pending,
        runtimes,
        (task, sample, runtime) =>
          recipe.run(
            {
              design: task.design,
              wording: task.wording,
              question: task.question.question,
              gold: { posts: questionPosts(task.question), headings: questionHeadings(task.question) },
            },
            recipe.runtime(runtime, seedOf(task, sample)),
          ),
        (task, sample, transcript, i) => {
          const record = answerRecord(model, task.design, task.question, transcript, {
            wording: task.wording.id,
            sample,
            seed: seedOf(task, sample),
          });
          folder.append(record);
          ran++;
          if (record.outcome === "error") failed++;
          if (serverRefused(record)) refused++;
          if (options.onTick === undefined || record.outcome === "error")
            progress(`${i + 1}/${toDo} ${describeRun(record)}`);
          const pace = timer.ran(model, record, i + 1, toDo);
          options.onTick?.({
            task: `runs of ${path.basename(model)}`,
            done: i + 1,
            total: toDo,
            unit: "runs",
            detail: `${record.design} ${record.question_id}${pace}`,
          });
        },
      );
    } finally {
      await loaded.dispose();
    }
  }
  // Lines were written as runs finished; the log keeps the plan's order (runs of other plans, kept, go first).
  if (ran > 0) folder.sortLog((run) => planOrder.get(runKey(run)) ?? -1);
  return { answersFile: folder.answersFile, ran, failed, refused, skipped };
}

/**
 * Every prompt of a model's runs, in plan order: design by design, then wording by wording, question by question,
 * with all its samples.
 */
function planRuns(
  designs: readonly DesignId[],
  wordings: readonly Wording[],
  questions: readonly Question[],
  samples: number,
): Task[] {
  const all = Array.from({ length: samples }, (_, i) => i);
  return designs.flatMap((design) =>
    wordings.flatMap((wording) => questions.map((question) => ({ design, wording, question, samples: all }))),
  );
}

/** What names one sample of a task's runs of a model. */
function identity(model: string, task: Task, sample: number): RunIdentity {
  return { model, design: task.design, question_id: task.question.id, wording: task.wording.id, sample };
}

/** The plan's tasks with only the samples not yet done, and those with none left out. */
function pendingTasks(plan: readonly Task[], done: (task: Task, sample: number) => boolean): Task[] {
  return plan.map((t) => ({ ...t, samples: t.samples.filter((s) => !done(t, s)) })).filter((t) => t.samples.length > 0);
}

/**
 * Runs tasks on several runtimes at once and hands each task's results over as soon as it is done (its samples in
 * order), so that a run killed mid-way has logged everything it finished; runStudy sorts the log into plan order at
 * the end.
 *
 * Each runtime works through its own stripe of the plan (see planStripes), so that consecutive runs of one design,
 * which share its system prompt and tool block, follow each other on one sequence and reuse its KV cache. A runtime
 * whose stripe is done takes the last task of the longest stripe left, keeping every runtime busy to the end while
 * the other stripes stay whole at their front.
 */
async function runInOrder(
  tasks: readonly Task[],
  runtimes: readonly ChatRuntime[],
  /** One sample of a task, on the worker's runtime. */
  runOne: (task: Task, sample: number, runtime: ChatRuntime) => Promise<Transcript>,
  onDone: (task: Task, sample: number, transcript: Transcript, index: number) => void,
): Promise<void> {
  let written = 0;
  const stripes = planStripes(tasks.length, runtimes.length);
  /** The next task a worker runs: the front of its own stripe, else the back of the longest one left. */
  const nextTask = (own: number[]): number | undefined =>
    own.length > 0 ? own.shift() : stripes.reduce((a, b) => (b.length > a.length ? b : a)).pop();
  let failed = false;
  const worker = async (runtime: ChatRuntime, own: number[]) => {
    while (!failed) {
      const position = nextTask(own);
      if (position === undefined) return;
      try {
        const task = tasks[position]!;
        const transcripts: Transcript[] = [];
        for (const sample of task.samples) transcripts.push(await runOne(task, sample, runtime));
        for (const [i, transcript] of transcripts.entries()) onDone(task, task.samples[i]!, transcript, written++);
      } catch (error) {
        failed = true; // the other workers finish their current run and stop: nothing may write after we return
        throw error;
      }
    }
  };
  const outcomes = await Promise.allSettled(runtimes.map((runtime, i) => worker(runtime, stripes[i]!)));
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failure) throw failure.reason;
}

/**
 * The plan's positions 0..count-1 cut into `workers` contiguous stripes, in order, their lengths differing by one at
 * most (the longer ones first). The plan runs design by design, so a stripe holds one design's runs, or the end of
 * one and the start of the next. Example: planStripes(5, 2) is [[0, 1, 2], [3, 4]].
 */
export function planStripes(count: number, workers: number): number[][] {
  const base = Math.floor(count / workers);
  const longer = count % workers;
  const stripes: number[][] = [];
  for (let w = 0, start = 0; w < workers; w++) {
    const length = base + (w < longer ? 1 : 0);
    stripes.push(Array.from({ length }, (_, i) => start + i));
    start += length;
  }
  return stripes;
}

function describeRun(r: AnswerRecord): string {
  const status = r.outcome === "error" ? `error: ${r.error}` : r.outcome;
  return `${r.design} ${r.question_id}: ${status}, ${r.model_calls} calls, ${r.tool_calls} tools, ${r.tokens_read} read, ${r.seconds.toFixed(1)} s`;
}
