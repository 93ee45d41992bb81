// The run command and what run, smoke and experiment share: their options, and the body that runs the study
// (runs/study.ts) and prints its tables.
import type { Argv, ArgumentsCamelCase, CommandModule } from "yargs";
import { hideBin } from "yargs/helpers";
import { QUANTS, type Quant } from "../llm/index.ts";
import { DERIVED_FILES, writeReport } from "../report/index.ts";
import { type DesignId, ENGINEERED_DESIGNS, STUDY_DESIGNS } from "../designs/index.ts";
import {
  failedRunsError,
  runStudyFolder,
  settingsFromArgs,
  SETTING_OPTIONS,
  readModelsFile,
  suiteModels,
  SUITES,
  SUITE_NAMES,
  type ModelEntry,
} from "../runs/index.ts";
import { UserError } from "../common/index.ts";
import {
  checkOptions,
  contentOption,
  COUNT_RANGE,
  questionsOption,
  REQUEST_SECONDS_RANGE,
  RETRIES_RANGE,
  usageError,
  searchOptions,
  type BuiltArgs,
  type CheckedOption,
} from "./options.ts";
import { display, tick, modelIds, parseDesigns, readWordings, progress, scoreAndPrint } from "./study-setup.ts";
import { sayOnInterrupt } from "./interrupt.ts";

/** What a run command takes besides the settings: its inputs, its selection of runs, and where it writes. */
const runInvocationOptions = {
  ...contentOption,
  ...questionsOption,
  "cache-dir": searchOptions["cache-dir"],
  designs: {
    type: "string",
    coerce: (list: string | string[]) => {
      if (Array.isArray(list)) throw usageError(`--designs given ${list.length} times: give it once, comma-separated`);
      return parseDesigns(list);
    },
    describe:
      `Designs to run, comma-separated: ids, or the groups study (${STUDY_DESIGNS.join(",")}, the default) ` +
      `and engineered (${ENGINEERED_DESIGNS.join(",")})`,
  },
  limit: { type: "number", range: COUNT_RANGE, describe: "Only the first N questions" },
  wordings: {
    type: "string",
    describe:
      "Run every design under each prompt wording of this JSON file (a list of {id, and any of system, " +
      "workflow_system, search_first, source_instruction, workflow_layout, tool_descriptions}), or builtin: the " +
      "study's and four rewrites. The manifest records the texts",
  },
  out: { type: "string", default: "runs/default", describe: "Run folder: answers.jsonl, tables, manifest" },
  "request-timeout": {
    type: "number",
    default: 300,
    range: REQUEST_SECONDS_RANGE,
    describe:
      "With --server: seconds one request may take before it is abandoned and tried again, from 1 to 300 in whole " +
      "milliseconds (1.5 is 1,500 ms; Node's fetch gives up on an answer whose headers take longer than 300)",
  },
  retries: {
    type: "number",
    default: 4,
    range: RETRIES_RANGE,
    describe:
      "With --server: tries again (0 to 10 times) after a connection error, a timeout, 429 or 5xx, waiting 0.5 s, " +
      "then twice as long each time",
  },
  fresh: {
    type: "boolean",
    default: false,
    describe:
      "Start the folder over: once the inputs and the first model check out, remove its answers, tables, manifest and report",
  },
  "accept-new-reading": {
    type: "boolean",
    default: false,
    describe:
      "Add to a folder whose answers were made by a blogqa that read the same posts into other sections (or did " +
      "not record how it read them), which is refused without it; each session records the reading it used",
  },
} as const satisfies Record<string, CheckedOption>;

/** Options of every command that runs models over the study: the run settings and the invocation's own. */
export function studyRunOptions<T>(y: Argv<T>) {
  return y
    .options(SETTING_OPTIONS)
    .options(runInvocationOptions)
    .check((argv) => {
      // each setting's own range, the one the manifest's schema and so audit check too, and the invocation's
      checkOptions(argv, { ...SETTING_OPTIONS, ...runInvocationOptions });
      return true;
    });
}

/** The parsed arguments of run, smoke and experiment, as yargs infers them from the option definitions. */
export type StudyRunArgs = ArgumentsCamelCase<BuiltArgs<typeof studyRunOptions<object>>>;

/** The body of run, smoke and experiment: answer every pending (model, design, question), then print the tables. */
export async function runStudyCommand(
  argv: StudyRunArgs,
  models: readonly string[],
  options: {
    report?: boolean;
    modelHint?: string;
    defaultDesigns?: readonly DesignId[];
    /** The suite's or --models file's entries, one per model (labels, sizes, each model's own settings). */
    entries?: readonly ModelEntry[];
    /** The command starts its folder over unless told --no-fresh (smoke), so a resume must say --no-fresh. */
    startsOverByDefault?: boolean;
  } = {},
): Promise<void> {
  const settings = settingsFromArgs(argv);
  const wordings = argv.wordings === undefined ? undefined : readWordings(argv.wordings);
  const stopSaying = sayOnInterrupt(argv.out, hideBin(process.argv), options.startsOverByDefault ?? false, () =>
    display.stop(),
  );
  const { summary, corpus } = await runStudyFolder({
    settings,
    selection: {
      models,
      designs: argv.designs ?? [...(options.defaultDesigns ?? STUDY_DESIGNS)],
      wordings,
      limit: argv.limit,
      entries: options.entries,
    },
    content: argv.content,
    questions: argv.questions,
    out: argv.out,
    fresh: argv.fresh,
    acceptNewReading: argv.acceptNewReading,
    derivedFiles: DERIVED_FILES,
    cacheDir: argv.cacheDir,
    requests: { timeoutSeconds: argv.requestTimeout, retries: argv.retries },
    modelHint: options.modelHint ?? "--model PATH runs a local .gguf file",
    onProgress: progress,
    onTick: tick,
  }).finally(stopSaying);
  display.stop();
  const failedNote = summary.failed > 0 ? ` (${summary.failed} failed: their model call failed)` : "";
  progress(`${summary.ran} runs done${failedNote}, ${summary.skipped} already logged, in ${summary.answersFile}`);
  scoreAndPrint(argv.out, corpus);
  if (options.report) progress(`report: ${await writeReport(argv.out, { content: argv.content })}`);
  // After the tables: they are written either way, but a run with failed calls is not a result (exit status 3).
  const failed = failedRunsError(summary);
  if (failed !== undefined) throw failed;
}

const runBuilder = (y: Argv) =>
  studyRunOptions(y)
    .option("model", {
      type: "string",
      array: true,
      describe:
        "A .gguf path, an hf: URI, or qwen2.5-1.5b / qwen2.5-3b; repeat for several (default: both study models)",
    })
    .option("quant", {
      choices: QUANTS,
      default: "f16" as Quant,
      describe:
        "Weights of the default models (and of the study suite): f16 (closest to the study's bf16), q8_0 or q4_k_m",
    })
    .option("suite", {
      choices: SUITE_NAMES,
      describe: `Several models into one folder, with their sizes for the report's scale chart: ${SUITES.map(
        (s) => `${s.name} (${s.describe})`,
      ).join("; ")}`,
    })
    .option("models", {
      type: "string",
      describe:
        "A JSON file listing the models to run into one folder, [{id, model, params_b, tool_format?}, ...]: a label, " +
        "a .gguf path (relative to the file) or hf: URI, the size in billions of parameters, and optionally the " +
        "model's own --tool-format",
    });

/** The models a run names: --model, --suite or --models (one of them), as ids and, for a suite or file, entries. */
function runModels(argv: BuiltArgs<typeof runBuilder>): { ids: string[]; entries?: ModelEntry[] } {
  const given = [
    argv.model !== undefined && argv.model.length > 0 ? "--model" : undefined,
    argv.suite !== undefined ? "--suite" : undefined,
    argv.models !== undefined ? "--models" : undefined,
  ].filter((x) => x !== undefined);
  if (given.length > 1) throw new UserError(`${given.join(" and ")}: name the models one way only`);
  const served = argv.server !== undefined;
  let entries: ModelEntry[] | undefined;
  if (argv.suite !== undefined) {
    if (served)
      throw new UserError(
        "--suite names hub files to run in this process; on a server, list the server's model ids in --models FILE",
      );
    const suite = suiteModels(argv.suite, argv.quant);
    // What each model's weights are (and why not f16), and which file names no publisher's page confirmed.
    for (const m of suite)
      progress(
        `${m.id}: ${m.weights}${m.fileVerified ? "" : `; note: ${m.model} was not seen on ${m.found} (docs/scale.md)`}`,
      );
    entries = suite.map(({ id, model, paramsB, toolFormat }) => ({
      id,
      model,
      paramsB,
      ...(toolFormat !== undefined ? { toolFormat } : {}),
    }));
  } else if (argv.models !== undefined) entries = readModelsFile(argv.models, { served });
  if (entries !== undefined) return { ids: entries.map((e) => e.model), entries };
  if (!served) return { ids: modelIds(argv.model, argv.quant) };
  // On a server, --model is the server's own model id, passed as it is.
  if (argv.model === undefined || argv.model.length === 0)
    throw new UserError("--server needs --model NAME, the server's model id (its /v1/models lists them)");
  return { ids: argv.model };
}

const run: CommandModule<object, BuiltArgs<typeof runBuilder>> = {
  command: "run",
  describe: "Run the study: every design on every question for each model, logged to <out>/answers.jsonl (resumable)",
  builder: runBuilder,
  handler: async (argv) => {
    const { ids, entries } = runModels(argv);
    if (entries !== undefined)
      progress(`${entries.length} models: ${entries.map((e) => `${e.id} (${e.paramsB}B)`).join(", ")}`);
    return runStudyCommand(
      argv,
      ids,
      entries !== undefined ? { entries, modelHint: "--models FILE runs local .gguf files listed in a JSON file" } : {},
    );
  },
};

/** Registers this file's commands on the command line. */
export const studyCommands = (y: Argv): Argv => y.command(run);
