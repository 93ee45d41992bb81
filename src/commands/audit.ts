// The audit command: rerun a run folder's first N runs of one model, one at a time, and compare transcripts byte for byte.
import type { Argv, CommandModule } from "yargs";
import type { AnswerRecord } from "../runs/index.ts";
import { modelLabels } from "../report/index.ts";
import { UserError } from "../common/index.ts";
import { checkOptions, COUNT_RANGE, defaultCacheDir } from "./options.ts";
import { say, warn } from "./io.ts";

interface AuditArgs {
  run?: string;
  model?: string;
  limit: number;
  out: string;
  content?: string;
  "cache-dir": string;
  json: boolean;
}

/** The logged model that `wanted` names: its exact id, its label in the tables (or part of it), or the only one. */
export function pickLoggedModel(records: readonly AnswerRecord[], wanted: string | undefined, file: string): string {
  const models = [...new Set(records.map((r) => r.model))];
  if (wanted === undefined) {
    if (models.length === 1) return models[0]!;
    throw new UserError(`${file} holds ${models.length} models; name one with --model: ${models.join(", ")}`);
  }
  const lower = wanted.toLowerCase();
  const labels = modelLabels(models);
  const label = (m: string) => labels(m).toLowerCase();
  const matches = models.filter((m) => m === wanted || label(m) === lower || label(m).includes(lower));
  const exact = matches.find((m) => m === wanted);
  if (exact) return exact;
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new UserError(`no runs of model "${wanted}" in ${file}; it holds: ${models.join(", ")}`);
  throw new UserError(`"${wanted}" names several models in ${file}: ${matches.join(", ")}; give the full id`);
}

const audit: CommandModule<object, AuditArgs> = {
  command: "audit [run]",
  describe:
    "Rerun the first N logged runs of a model one at a time without cache reuse, with the run's own settings (from its manifest.json), " +
    "and report how many transcripts come back byte-identical and where the others part",
  builder: (y) =>
    y
      .positional("run", { type: "string", describe: "A run folder, or the answers.jsonl inside one (default: --out)" })
      .option("model", {
        type: "string",
        describe: "The model to audit: its id in answers.jsonl or part of its name (default: the only one)",
      })
      .option("limit", {
        type: "number",
        default: 10,
        range: COUNT_RANGE,
        describe: "How many of its runs to rerun, in log order",
      })
      .option("out", {
        type: "string",
        default: "runs/default",
        describe: "The run folder (answers.jsonl and manifest.json)",
      })
      .option("content", {
        type: "string",
        describe:
          "The blog's posts (default: the folder the manifest records); must be the same bytes the run searched",
      })
      .option("cache-dir", {
        type: "string",
        default: defaultCacheDir(),
        defaultDescription: "$BLOGQA_CACHE or ./.cache",
        describe: "Index, model and parsed-post cache",
      })
      .option("json", { type: "boolean", default: false, describe: "Print the result as JSON" })
      .check((argv) => {
        checkOptions(argv, { limit: { range: COUNT_RANGE } });
        return true;
      }) as never,
  handler: async (argv) => {
    const { auditRunFolder, auditText, readManifest, settingsFromFields } = await import("../runs/index.ts");
    const { readRunLog } = await import("../report/index.ts");
    const { dir, answersFile: file, records } = readRunLog(argv.run ?? argv.out);
    const manifest = readManifest(dir);
    if (!manifest)
      throw new UserError(
        `${dir} has no manifest.json: the audit reruns with the run's own settings and cannot know them`,
      );
    const model = pickLoggedModel(records, argv.model, file);
    const result = await auditRunFolder({
      dir,
      manifest,
      model,
      runs: records.filter((r) => r.model === model).slice(0, argv.limit),
      content: argv.content,
      cacheDir: argv["cache-dir"],
      onProgress: warn,
    });
    const { parallel, reuseCache } = settingsFromFields(manifest.settings);
    say(argv.json ? JSON.stringify(result) : auditText(result, { dir, parallel, reuseCache }));
  },
};

/** Registers this file's commands on the command line. */
export const auditCommands = (y: Argv): Argv => y.command(audit);
