// The report commands: thin shells over src/report/ (the HTML page, the paired comparisons).
import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import { UserError } from "../common/index.ts";
import { compareRuns } from "../scoring/index.ts";
import { comparisonsMarkdown, readRunFolder, writeReport, type ReadRun } from "../report/index.ts";
import { jsonOption, runFolderOptions, runPositional } from "./options.ts";

const report: CommandModule<object, { run: string; content?: string; force: boolean }> = {
  command: "report <run>",
  describe:
    "Write <dir>/report.html: one offline page with the tables, charts with 95% intervals, paired comparisons and a transcript browser",
  builder: (y) => y.positional("run", runPositional).options(runFolderOptions),
  handler: async (argv) => {
    const file = await writeReport(argv.run, { content: argv.content, force: argv.force });
    console.log(file);
  },
};

const compare: CommandModule<object, { run: string; other?: string; content?: string; force: boolean; json: boolean }> =
  {
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
        .options(jsonOption),
    handler: async (argv) => {
      const options = { content: argv.content, force: argv.force };
      const folder = await readRunFolder(argv.run, options);
      const records =
        argv.other === undefined ? folder.records : tagFolders(folder, await readRunFolder(argv.other, options));
      const comparisons = compareRuns(records, folder.slugs);
      console.log(argv.json ? JSON.stringify(comparisons) : comparisonsMarkdown(comparisons));
    },
  };

/** Both folders' records, each model id tagged "<id> [<folder name>]", so the same model in each is two arms. */
function tagFolders(a: ReadRun, b: ReadRun) {
  if (path.resolve(a.dir) === path.resolve(b.dir))
    throw new UserError(`compare: ${a.dir} given twice; name two run folders`);
  const blog = (f: ReadRun) => f.manifest?.corpus.sha256;
  if (blog(a) !== undefined && blog(b) !== undefined && blog(a) !== blog(b)) {
    throw new UserError(
      `compare: ${a.dir} and ${b.dir} searched different blogs (corpus sha256 differ): their answers cannot be paired`,
    );
  }
  let [tagA, tagB] = [a.dir, b.dir].map((d) => path.basename(path.resolve(d)).replace(/[\]/\\]/g, "_"));
  if (tagA === tagB) [tagA, tagB] = [`${tagA} 1`, `${tagB} 2`];
  return [
    ...a.records.map((r) => ({ ...r, model: `${r.model} [${tagA}]` })),
    ...b.records.map((r) => ({ ...r, model: `${r.model} [${tagB}]` })),
  ];
}

/** Registers this file's commands on the command line. */
export const reportCommands = (y: Argv): Argv => y.command(report).command(compare);
