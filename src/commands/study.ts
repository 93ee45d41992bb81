// The study commands: thin shells over src/runs/.
import type { Argv, ArgumentsCamelCase, CommandModule, Options } from "yargs";
import { checkModel, QUANTS, type Quant } from "../llm/index.ts";
import path from "node:path";
import {
  DERIVED_FILES,
  readRunFolder,
  rescoreJson,
  rescoreText,
  withheldComparison,
  writeReport,
  writeTables,
} from "../report/index.ts";
import { costTableText, type DesignId, transcriptCostTable, STUDY_DESIGNS } from "../designs/index.ts";
import {
  runStudy,
  failedRunsError,
  samplingChoice,
  settingsFromArgs,
  settingsProblem,
  SETTING_OPTIONS,
  openRunFolder,
  readModelsFile,
  type StudyRunSummary,
  suiteModels,
  SUITES,
  SUITE_NAMES,
  recordWithheldPair,
  type ModelEntry,
} from "../runs/index.ts";
import { UserError } from "../common/index.ts";
import { checkWritableFolder } from "../common/index.ts";
import {
  contentOption,
  jsonOption,
  questionsOption,
  refuseRepeats,
  runFolderOptions,
  usageError,
  runPositional,
  searchOptions,
  type BuiltArgs,
} from "./options.ts";
import { checkOfflineInputs } from "./offline-check.ts";
import { JUDGE_TIMEOUT_SECONDS, judgeRunFolder } from "./judge.ts";
import {
  display,
  tick,
  modelIds,
  modelOpener,
  parseDesigns,
  serverOpener,
  prepareStudy,
  readWordings,
  progress,
  scoreAndPrint,
} from "./study-setup.ts";

const cost: CommandModule<object, { prefix: number; "per-turn": number; price: number; json: boolean }> = {
  command: "cost",
  describe: "The study's transcript-cost table: tokens and dollars for 5, 10, 20 and 50 agent turns",
  builder: (y) =>
    y
      .option("prefix", { type: "number", default: 5000, describe: "Tokens in the fixed prefix (P)" })
      .option("per-turn", { type: "number", default: 1500, describe: "New tokens per turn (g)" })
      .option("price", { type: "number", default: 3, describe: "Dollars per million input tokens" })
      .option("json", { type: "boolean", default: false, describe: "Print JSON rows" })
      .check((argv) => {
        refuseRepeats(argv, { prefix: {}, "per-turn": {}, price: {}, json: {} });
        for (const flag of ["prefix", "per-turn", "price"] as const) {
          const value = argv[flag];
          if (!(Number.isFinite(value) && value >= 0)) throw usageError(`--${flag} must be a number, 0 or more`);
        }
        return true;
      }),
  handler: (argv) => {
    const assumptions = { prefix: argv.prefix, perTurn: argv["per-turn"], pricePerMillion: argv.price };
    const rows = transcriptCostTable(assumptions);
    const counts = [argv.prefix, argv["per-turn"], ...rows.flatMap((r) => [r.finalContext, r.tokensRead])];
    // Token counts are Python ints in the study's script: whole, and exact here only up to 2^53.
    if (!counts.every((n) => Number.isSafeInteger(n) && n >= 0))
      throw new UserError(
        "--prefix and --per-turn take whole numbers of tokens, few enough that 50 turns of them stay under 2^53",
      );
    console.log(argv.json ? JSON.stringify(rows) : costTableText(assumptions, rows));
  },
};

/** What a run command takes besides the settings: its inputs, its selection of runs, and where it writes. */
const runInvocationOptions = {
  ...contentOption,
  ...questionsOption,
  "cache-dir": searchOptions["cache-dir"],
  designs: {
    type: "string",
    alias: "variants",
    coerce: (list: string | string[]) => {
      if (Array.isArray(list)) throw usageError(`--designs given ${list.length} times: give it once, comma-separated`);
      return parseDesigns(list);
    },
    describe:
      `Designs to run, comma-separated: ids, or the groups study (${STUDY_DESIGNS.join(",")}, the default) ` +
      "and engineered (agent-validated,agent-cite-checked,workflow-cite-checked,agent-constrained)",
  },
  limit: { type: "number", describe: "Only the first N questions" },
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
    describe:
      "With --server: seconds one request may take before it is abandoned and tried again (at most 300: Node's fetch " +
      "gives up on an answer whose headers take longer)",
  },
  retries: {
    type: "number",
    default: 4,
    describe:
      "With --server: tries again after a connection error, a timeout, 429 or 5xx, waiting 0.5 s, then twice as long each time",
  },
  fresh: {
    type: "boolean",
    default: false,
    describe:
      "Start the folder over: once the inputs and the first model check out, remove its answers, tables, manifest and report",
  },
} as const satisfies Record<string, Options>;

/** Options of every command that runs models over the study: the run settings and the invocation's own. */
export function studyRunOptions<T>(y: Argv<T>) {
  return y
    .options(SETTING_OPTIONS)
    .options(runInvocationOptions)
    .check((argv) => {
      refuseRepeats(argv, { ...SETTING_OPTIONS, ...runInvocationOptions });
      const positive = (flag: string, value: number | undefined) => {
        if (value !== undefined && (!Number.isInteger(value) || value < 1))
          throw usageError(`--${flag} must be a positive integer`);
      };
      positive("limit", argv.limit);
      // each setting's own range, the one the manifest's schema and so audit check too
      const problem = settingsProblem(argv);
      if (problem !== undefined) throw usageError(problem);
      const timeout = argv["request-timeout"];
      if (!(timeout > 0 && timeout <= 300))
        throw new UserError("--request-timeout must be a number of seconds above 0 and at most 300");
      if (!Number.isInteger(argv.retries) || argv.retries < 0)
        throw new UserError("--retries must be a whole number, 0 or more");
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
  } = {},
): Promise<void> {
  checkWritableFolder(argv.out, "--out"); // before any work: a run that cannot log its first answer would be wasted
  const settings = settingsFromArgs(argv);
  samplingChoice(settings); // a sampling flag that means nothing is refused before the index or a model loads
  const wordings = argv.wordings === undefined ? undefined : readWordings(argv.wordings);
  const cacheDir = argv.cacheDir;
  const designs = argv.designs ?? [...(options.defaultDesigns ?? STUDY_DESIGNS)];
  const entryOf = new Map((options.entries ?? []).map((e) => [e.model, e]));
  // Offline, everything missing is named at once, before minutes of work that would stop at the first of them.
  const needed = {
    models,
    retriever: settings.retriever,
    embeddingModel: settings.embeddingModel,
    embeddingDtype: settings.embeddingDtype,
    cacheDir,
    generationConfigs: settings.repetitionPenalty === "auto" && settings.generationConfig === undefined,
  };
  const served = settings.server !== undefined;
  // A served model's files are the server's business; only its generation config may be fetched here.
  await checkOfflineInputs(
    { ...needed, models: served ? [] : models },
    options.modelHint ?? "--model PATH runs a local .gguf file",
  );
  const inputs = await prepareStudy(settings, {
    content: argv.content,
    questions: argv.questions,
    limit: argv.limit,
    cacheDir,
  });
  // Checked before any model loads: a folder's answers must all come from one setup.
  const folder = openRunFolder(argv.out, {
    inputs: {
      settings,
      selection: { models, designs, limit: argv.limit },
      questionsFile: argv.questions,
      corpus: inputs.corpus,
      questionCount: inputs.questions.length,
      embedding: inputs.index.embedding,
      ...(wordings !== undefined ? { wordings } : {}),
    },
    fresh: argv.fresh,
    derivedFiles: DERIVED_FILES,
    cacheDir,
    onProgress: progress,
  });
  let summary: StudyRunSummary;
  try {
    // Every model's files and metadata before anything runs (and before --fresh removes anything).
    if (!served)
      for (const id of models)
        await checkModel(id, { cacheDir, chatTemplate: settings.chatTemplate, onProgress: progress });
    summary = await runStudy({
      folder,
      models,
      designs,
      ...(wordings !== undefined ? { wordings } : {}),
      questions: inputs.questions,
      openModel: served
        ? serverOpener(settings, cacheDir, { timeoutSeconds: argv.requestTimeout, retries: argv.retries })
        : modelOpener(settings, cacheDir),
      entryOf: (id) => entryOf.get(id),
      index: inputs.index,
      settings,
      fresh: argv.fresh,
      onProgress: progress,
      onTick: tick,
    });
    display.stop();
    folder.finish(summary);
  } finally {
    folder.close();
  }
  const failedNote = summary.failed > 0 ? ` (${summary.failed} failed: their model call failed)` : "";
  progress(`${summary.ran} runs done${failedNote}, ${summary.skipped} already logged, in ${summary.answersFile}`);
  scoreAndPrint(argv.out, inputs.corpus);
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

/** rescore's options beyond the run folder's: the withheld-source test's second folder, and the model judge. */
const rescoreOptions = {
  against: {
    type: "string",
    describe:
      "A second run folder of the same blog and questions, exactly one of the two run with --withhold: tables.md " +
      "(and withholding.csv) is written again with the withheld-source test (per design, how often right " +
      "citations and answers survive withholding, with paired p); the pair is recorded in <dir>/withheld-pair.json, " +
      "so later tables keep it",
  },
  judge: {
    type: "string",
    describe:
      "Beyond the study: an OpenAI-compatible server's base URL (e.g. http://127.0.0.1:8080/v1) whose --judge-model " +
      "is asked, for each answer of a question with key facts, whether its gold section's text supports it (greedy, " +
      "a one-word reply); each exchange is logged to <dir>/judgments.jsonl as it comes back (a run is judged once: " +
      "the same command resumes), and tables.md is written again with the judge's table beside the key facts",
  },
  "judge-model": { type: "string", describe: "With --judge: the server's model id to judge with" },
  "judge-timeout": {
    type: "number",
    describe:
      "With --judge: seconds one judge request may take before it is abandoned and tried again (default 300, the " +
      "most: Node's fetch gives up on an answer whose headers take longer)",
  },
  "judge-api-key-env": {
    type: "string",
    describe: "With --judge: the environment variable holding the judge server's API key (the key is never logged)",
  },
  "judge-retries": {
    type: "number",
    describe:
      "With --judge: tries again after a connection error, a timeout, 429 or 5xx, waiting 0.5 s, then twice as " +
      "long each time (default 4)",
  },
} as const satisfies Record<string, Options>;

const rescoreBuilder = (y: Argv) =>
  y
    .positional("run", runPositional)
    .options(runFolderOptions)
    .options(jsonOption)
    .options(rescoreOptions)
    .check((argv) => {
      refuseRepeats(argv, { ...runFolderOptions, ...jsonOption, ...rescoreOptions });
      if ((argv.judge === undefined) !== (argv["judge-model"] === undefined))
        throw usageError("--judge URL and --judge-model NAME go together: give both");
      for (const flag of ["judge", "judge-model", "judge-api-key-env"] as const)
        if (argv[flag] !== undefined && argv[flag].trim() === "")
          throw usageError(`--${flag} was given an empty value: give a ${flag === "judge" ? "URL" : "name"}`);
      for (const flag of ["judge-api-key-env", "judge-retries", "judge-timeout"] as const)
        if (argv[flag] !== undefined && argv.judge === undefined) throw usageError(`--${flag} needs --judge URL`);
      const retries = argv["judge-retries"];
      if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0))
        throw usageError("--judge-retries must be a whole number, 0 or more");
      const timeout = argv["judge-timeout"];
      if (timeout !== undefined && !(timeout > 0 && timeout <= 300))
        throw usageError("--judge-timeout must be a number of seconds above 0 and at most 300");
      return true;
    });

const rescore: CommandModule<object, BuiltArgs<typeof rescoreBuilder>> = {
  command: "rescore <run>",
  describe:
    "The study's strict rescore of a logged run: classify each source line (none / one real / several / invented); " +
    "two-post questions get their own table (exactly the gold posts / subset / plus others / none of them / no source line)",
  builder: rescoreBuilder,
  handler: async (argv) => {
    const options = { content: argv.content, force: argv.force };
    const folder = await readRunFolder(argv.run, options);
    // Checked before any judging: a pair that cannot be compared is refused at once, and recorded once it passes.
    if (argv.against !== undefined) {
      const pair = withheldComparison(folder, await readRunFolder(argv.against, options), "rescore --against");
      for (const line of pair.notices) console.error(`rescore --against: ${line}`);
      recordWithheldPair(folder.dir, argv.against);
    }
    const judging = argv.judge !== undefined && argv["judge-model"] !== undefined;
    if (judging)
      await judgeRunFolder(folder, {
        ...options,
        url: argv.judge,
        model: argv["judge-model"],
        apiKeyEnv: argv["judge-api-key-env"],
        retries: argv["judge-retries"] ?? 4,
        timeoutSeconds: argv["judge-timeout"] ?? JUDGE_TIMEOUT_SECONDS,
        onProgress: (line) => console.error(line),
      });
    // What the folder now records changes its tables: written again, all of them (the recorded ones decide which).
    if (judging || argv.against !== undefined) {
      const { files } = writeTables(folder.dir, folder.records, folder.slugs, folder.context);
      console.error(`tables written to ${path.join(folder.dir, files[0]!)}, ${files.slice(1).join(", ")}`);
    }
    console.log(argv.json ? rescoreJson(folder) : rescoreText(folder));
  },
};

/** Registers this file's commands on the command line. */
export const studyCommands = (y: Argv): Argv => y.command(run).command(rescore).command(cost);
