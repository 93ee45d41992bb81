// The report commands: thin shells over src/report/ (the HTML page, the paired comparisons).
import type { Argv, CommandModule } from "yargs";
import { compareRuns } from "../scoring/index.ts";
import { comparisonsMarkdown, openRunFolder, writeReport } from "../report/index.ts";
import { jsonOption, runFolderOptions, runPositional } from "./options.ts";


const report: CommandModule<object, { dir: string; content?: string; force: boolean }> = {
  command: "report <dir>",
  describe: "Write <dir>/report.html: one offline page with the tables, charts with 95% intervals, paired comparisons and a transcript browser",
  builder: (y) => y.positional("dir", runPositional).options(runFolderOptions),
  handler: async (argv) => {
    const file = await writeReport(argv.dir, { content: argv.content, force: argv.force });
    console.log(file);
  },
};

const compare: CommandModule<object, { file: string; content?: string; force: boolean; json: boolean }> = {
  command: "compare <file>",
  describe:
    "Paired comparisons of a logged run: each agent design against the workflow, and each design across models, for found and cites right (strict): " +
    "95% Wilson intervals, exact McNemar p, the questions that flip",
  builder: (y) =>
    y
      .positional("file", runPositional)
      .options(runFolderOptions)
      .options(jsonOption),
  handler: async (argv) => {
    const folder = await openRunFolder(argv.file, { content: argv.content, force: argv.force });
    const comparisons = compareRuns(folder.records, folder.slugs);
    console.log(argv.json ? JSON.stringify(comparisons) : comparisonsMarkdown(comparisons));
  },
};

/** Registers this file's commands on the command line. */
export const reportCommands = (y: Argv): Argv => y.command(report).command(compare);
