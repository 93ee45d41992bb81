// The export-prompts command: every prompt a finished run sent, rendered as its runtime rendered it, one JSON line each.
import fs from "node:fs";
import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import { readManifest, renderLoggedPrompts, type ExportedPrompt } from "../runs/index.ts";
import { readRunLog } from "../report/index.ts";
import { UserError, writeFileAtomic } from "../common/index.ts";
import { defaultCacheDir } from "./options.ts";
import { pickLoggedModel } from "./audit.ts";
import { say, warn } from "./io.ts";

interface ExportArgs {
  run: string;
  out: string;
  model?: string;
  server?: string;
  "cache-dir": string;
}

/** A run folder's prompts (or one model's, named as audit names it), as renderLoggedPrompts renders them. */
export async function exportPrompts(options: {
  readonly run: string;
  readonly model?: string;
  readonly server?: string;
  readonly cacheDir: string;
  readonly onProgress?: (line: string) => void;
}): Promise<ExportedPrompt[]> {
  const { dir, answersFile, records } = readRunLog(options.run);
  const manifest = readManifest(dir);
  if (!manifest)
    throw new UserError(`${dir} has no manifest.json: the prompts depend on the run's settings, which it records`);
  const model = options.model !== undefined ? pickLoggedModel(records, options.model, answersFile) : undefined;
  return renderLoggedPrompts({
    dir,
    manifest,
    records: model === undefined ? records : records.filter((r) => r.model === model),
    server: options.server,
    cacheDir: options.cacheDir,
    onProgress: options.onProgress,
  });
}

const exportCommand: CommandModule<object, ExportArgs> = {
  command: "export-prompts <run>",
  describe:
    "Write every prompt a run sent, rendered with the model's chat template as its runtime rendered it, in plan " +
    "order, one JSON line each ({model, design, question_id, call, prompt, max_tokens}): for replaying the run's " +
    "calls against a server elsewhere (scripts/gpu-check/)",
  builder: (y) =>
    y
      .positional("run", {
        type: "string",
        demandOption: true,
        describe: "A run folder, or the answers.jsonl inside one",
      })
      .option("out", { type: "string", demandOption: true, describe: "The JSONL file to write" })
      .option("model", {
        type: "string",
        describe: "Only this model's calls: its id in answers.jsonl or part of its name",
      })
      .option("server", {
        type: "string",
        describe:
          "For a run made with --server: the OpenAI-compatible server's base URL (e.g. http://127.0.0.1:8080/v1) to " +
          "read the chat template from, instead of the one the run's manifest.json records",
      })
      .option("cache-dir", {
        type: "string",
        default: defaultCacheDir(),
        defaultDescription: "$BLOGQA_CACHE or ./.cache",
        describe: "Model cache",
      }) as never,
  handler: async (argv) => {
    const prompts = await exportPrompts({
      run: argv.run,
      ...(argv.model !== undefined ? { model: argv.model } : {}),
      ...(argv.server !== undefined ? { server: argv.server } : {}),
      cacheDir: argv["cache-dir"],
      onProgress: warn,
    });
    fs.mkdirSync(path.dirname(path.resolve(argv.out)), { recursive: true });
    writeFileAtomic(argv.out, prompts.map((p) => `${JSON.stringify(p)}\n`).join(""));
    const bytes = fs.statSync(argv.out).size;
    say(`${argv.out}: ${prompts.length} prompts, ${bytes} bytes`);
  },
};

/** Registers this file's commands on the command line. */
export const exportPromptsCommands = (y: Argv): Argv => y.command(exportCommand);
