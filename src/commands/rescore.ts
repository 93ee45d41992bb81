// The rescore command: the study's strict rescore of a run folder, and beside it the withheld-source test
// (--against) and the model judge (--judge-model, in process or on a --judge server), whose records then join the
// folder's tables.
import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import {
  checkOptions,
  jsonOption,
  REQUEST_SECONDS_RANGE,
  RETRIES_RANGE,
  runFolderOptions,
  runPositional,
  searchOptions,
  usageError,
  type BuiltArgs,
  type CheckedOption,
} from "./options.ts";
import { say, warn } from "./io.ts";

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
  "judge-model": {
    type: "string",
    describe:
      "Beyond the study: a model asked, for each answer of a question with key facts, whether its gold section's " +
      "text supports it (greedy, a one-word reply): a .gguf path, an hf: URI or a study model's name, run in this " +
      "process as a run's model is, or with --judge the server's model id; each exchange is logged to " +
      "<dir>/judgments.jsonl as it comes back (a run is judged once: the same command resumes), and tables.md is " +
      "written again with the judge's table beside the key facts",
  },
  judge: {
    type: "string",
    describe:
      "With --judge-model: run the judge on the OpenAI-compatible server at this base URL (e.g. " +
      "http://127.0.0.1:8080/v1), which renders the messages with its own chat template (/v1/chat/completions)",
  },
  "cache-dir": {
    ...searchOptions["cache-dir"],
    describe:
      "Where parsed posts are kept between commands, and, with --judge-model in this process, where a model given " +
      "as an hf: URI or a name is downloaded",
  },
  "judge-timeout": {
    type: "number",
    range: REQUEST_SECONDS_RANGE,
    describe:
      "With --judge: seconds one judge request may take before it is abandoned and tried again, from 1 to 300 in " +
      "whole milliseconds (default 300, the most: Node's fetch gives up on an answer whose headers take longer)",
  },
  "judge-api-key-env": {
    type: "string",
    describe: "With --judge: the environment variable holding the judge server's API key (the key is never logged)",
  },
  "accept-new-reading": {
    type: "boolean",
    default: false,
    describe:
      "With --judge-model: judge a folder whose answers were made by a blogqa that read the same posts into other " +
      "sections, against the gold text as this blogqa reads it (refused without it)",
  },
  "judge-retries": {
    type: "number",
    range: RETRIES_RANGE,
    describe:
      "With --judge: tries again (0 to 10 times) after a connection error, a timeout, 429 or 5xx, waiting 0.5 s, " +
      "then twice as long each time (default 4)",
  },
} as const satisfies Record<string, CheckedOption>;

const rescoreBuilder = (y: Argv) =>
  y
    .positional("run", runPositional)
    .options(runFolderOptions)
    .options(jsonOption)
    .options(rescoreOptions)
    .check((argv) => {
      checkOptions(argv, { ...runFolderOptions, ...jsonOption, ...rescoreOptions });
      if (argv.judge !== undefined && argv["judge-model"] === undefined)
        throw usageError("--judge URL needs --judge-model NAME: the server's model id to judge with");
      for (const flag of ["judge", "judge-model", "judge-api-key-env"] as const)
        if (argv[flag] !== undefined && argv[flag].trim() === "")
          throw usageError(`--${flag} was given an empty value: give a ${flag === "judge" ? "URL" : "name"}`);
      for (const flag of ["judge-api-key-env", "judge-retries", "judge-timeout"] as const)
        if (argv[flag] !== undefined && argv.judge === undefined) throw usageError(`--${flag} needs --judge URL`);
      return true;
    });

const rescore: CommandModule<object, BuiltArgs<typeof rescoreBuilder>> = {
  command: "rescore <run>",
  describe:
    "The study's strict rescore of a logged run: classify each source line (none / one real / several / invented); " +
    "two-post questions get their own table (exactly the gold posts / subset / plus others / none of them / no source line)",
  builder: rescoreBuilder,
  handler: async (argv) => {
    const { readRunFolder, rescoreJson, rescoreText, withheldComparison, writeTables } = await import(
      "../report/index.ts"
    );
    const { checkFolderReading, JUDGE_TIMEOUT_SECONDS, judgeRunFolder, mixedReadings, recordWithheldPair } =
      await import("../runs/index.ts");
    const { judgeRequest, parseVerdict } = await import("../scoring/index.ts");
    const { modelIdFor } = await import("../llm/index.ts");
    const options = { content: argv.content, force: argv.force, onNotice: warn };
    const folder = await readRunFolder(argv.run, options);
    const judgeModel = argv["judge-model"];
    // The scores come from the log, whatever reads the blog now; the judge's gold text does not (judgeRunFolder).
    if (folder.manifest !== undefined && judgeModel === undefined) {
      const reading = await checkFolderReading(folder.dir, folder.manifest, argv.content, argv["cache-dir"]);
      if (reading.kind === "differs") warn(`rescore: note: ${reading.line}; its answers are scored as logged`);
      const mixed = mixedReadings(folder.manifest);
      if (mixed !== undefined) warn(`rescore: note: ${folder.dir} holds answers from two readings: ${mixed}`);
    }
    // Checked before any judging: a pair that cannot be compared is refused at once, and recorded once it passes.
    if (argv.against !== undefined) {
      const pair = withheldComparison(folder, await readRunFolder(argv.against, options), "rescore --against");
      for (const line of pair.notices) warn(`rescore --against: ${line}`);
      recordWithheldPair(folder.dir, argv.against);
    }
    if (judgeModel !== undefined) {
      const server =
        argv.judge === undefined
          ? undefined
          : {
              url: argv.judge,
              apiKeyEnv: argv["judge-api-key-env"],
              retries: argv["judge-retries"] ?? 4,
              timeoutSeconds: argv["judge-timeout"] ?? JUDGE_TIMEOUT_SECONDS,
            };
      await judgeRunFolder(
        folder,
        { request: judgeRequest, verdict: parseVerdict },
        {
          ...options,
          // A server is asked by its own model id; a model in this process is named as run names one.
          model: server !== undefined ? judgeModel : modelIdFor(judgeModel),
          server,
          cacheDir: argv["cache-dir"],
          acceptNewReading: argv["accept-new-reading"],
          onProgress: warn,
        },
      );
    }
    // What the folder now records changes its tables: written again, all of them (the recorded ones decide which).
    if (judgeModel !== undefined || argv.against !== undefined) {
      const { files } = writeTables(folder.dir, folder.records, folder.slugs, folder.context, warn);
      warn(`tables written to ${path.join(folder.dir, files[0]!)}, ${files.slice(1).join(", ")}`);
    }
    say(argv.json ? rescoreJson(folder, warn) : rescoreText(folder, warn));
  },
};

/** Registers this file's commands on the command line. */
export const rescoreCommands = (y: Argv): Argv => y.command(rescore);
