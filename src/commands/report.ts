// The report commands: thin shells over src/report/ (the HTML page, the paired comparisons).
import type { Argv, CommandModule } from "yargs";
import { jsonOption, runFolderOptions, runPositional, usageError } from "./options.ts";
import { say, warn } from "./io.ts";

const report: CommandModule<object, { run: string; content?: string; force: boolean; against?: string }> = {
  command: "report <run>",
  describe:
    "Write <dir>/report.html: one offline page with the tables, charts with 95% intervals, paired comparisons and a transcript browser",
  builder: (y) =>
    y
      .positional("run", runPositional)
      .options(runFolderOptions)
      .option("against", {
        type: "string",
        describe:
          "A second run folder of the same questions, one of the two run with --withhold: adds the withheld-source " +
          "test (per design, how often right citations and answers survive withholding, with paired p)",
      }),
  handler: async (argv) => {
    const { writeReport } = await import("../report/index.ts");
    const file = await writeReport(argv.run, {
      content: argv.content,
      force: argv.force,
      against: argv.against,
      onNotice: warn,
    });
    say(file);
  },
};

const compare: CommandModule<
  object,
  { run: string; other?: string; content?: string; force: boolean; json: boolean; "common-questions": boolean }
> = {
  command: "compare <run> [other]",
  describe:
    "Paired comparisons of a logged run: each agent design against the workflow, and each design across models, for found and cites right (strict): " +
    "95% Wilson intervals, exact McNemar p, the questions that flip. With a second run folder (the same blog and questions, other settings, " +
    "say --repetition-penalty none), each model is also compared with itself across the two, its runs tagged with their folder's name",
  builder: (y) =>
    y
      .positional("run", runPositional)
      .positional("other", { type: "string", describe: "A second run folder to compare with the first" })
      .options(runFolderOptions)
      .options(jsonOption)
      .option("common-questions", {
        type: "boolean",
        default: false,
        describe:
          "With a second folder that asked other questions: compare only the questions both asked (same text and gold post), and say how many were left out",
      })
      .check((argv) => {
        // alone it would change nothing, and say nothing: a flag that seems to have worked
        if (argv["common-questions"] && argv.other === undefined)
          throw usageError("--common-questions pairs two folders: give the second run folder after the first");
        return true;
      }),
  handler: async (argv) => {
    const { compareJson, compareText, readRunFolder } = await import("../report/index.ts");
    const options = { content: argv.content, force: argv.force, onNotice: warn };
    const folder = await readRunFolder(argv.run, options);
    const other = argv.other === undefined ? undefined : await readRunFolder(argv.other, options);
    const pairing = { commonQuestions: argv["common-questions"], onNotice: warn };
    say(argv.json ? compareJson(folder, other, pairing) : compareText(folder, other, pairing));
  },
};

const exportRun: CommandModule<object, { run: string; content?: string; force: boolean; format: "inspect" }> = {
  command: "export <run>",
  describe:
    "Write the run for other tools: --format inspect writes <dir>/inspect/, one Inspect evaluation log per model " +
    "(one sample per run: its messages, the found and strict cites-right scores, the model and settings), for " +
    "`inspect view --log-dir <dir>/inspect`. Prints the files written",
  builder: (y) =>
    y
      .positional("run", runPositional)
      .options(runFolderOptions)
      .option("format", { choices: ["inspect"] as const, demandOption: true, describe: "What to write" }),
  handler: async (argv) => {
    const { readRunFolder, writeInspectLogs } = await import("../report/index.ts");
    const folder = await readRunFolder(argv.run, { content: argv.content, force: argv.force, onNotice: warn });
    for (const file of writeInspectLogs(folder)) say(file);
  },
};

/** Registers this file's commands on the command line. */
export const reportCommands = (y: Argv): Argv => y.command(report).command(compare).command(exportRun);
