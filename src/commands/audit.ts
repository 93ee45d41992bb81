// The audit command: rerun a run folder's first N runs of one model, one at a time, and compare transcripts byte for byte.
import type { Argv, CommandModule } from "yargs";
import { loadCorpus } from "../corpus/index.ts";
import { loadModel } from "../llm/index.ts";
import { openIndex } from "../search/index.ts";
import {
  auditRuns,
  auditText,
  cachedSha256,
  decodingChange,
  modelLoadOptions,
  modelSampling,
  readManifest,
  samplingChoice,
  settingsFromFields,
  type AnswerRecord,
  type RunManifest,
  recordedSplitDepth,
} from "../runs/index.ts";
import { modelDialect } from "../toolcalls/index.ts";
import { modelLabels, readRunLog } from "../report/index.ts";
import { UserError } from "../common/index.ts";
import { defaultCacheDir } from "./options.ts";
import { serverOpener } from "./study-setup.ts";

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
      .option("limit", { type: "number", default: 10, describe: "How many of its runs to rerun, in log order" })
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
        describe: "Index and model cache",
      })
      .option("json", { type: "boolean", default: false, describe: "Print the result as JSON" })
      .check((argv) => {
        if (!Number.isInteger(argv.limit) || argv.limit < 1) throw new UserError("--limit must be a positive integer");
        return true;
      }) as never,
  handler: async (argv) => {
    const progress = (line: string) => console.error(line);
    const { dir, answersFile: file, records } = readRunLog(argv.run ?? argv.out);
    const manifest = readManifest(dir);
    if (!manifest)
      throw new UserError(
        `${dir} has no manifest.json: the audit reruns with the run's own settings and cannot know them`,
      );
    const model = pickLoggedModel(records, argv.model, file);
    const runs = records.filter((r) => r.model === model).slice(0, argv.limit);

    const corpus = await loadCorpus(argv.content ?? manifest.corpus.dir, {
      splitDepth: recordedSplitDepth(manifest.settings),
    });
    if (corpus.hash !== manifest.corpus.sha256) {
      throw new UserError(
        `${corpus.dir} is not the blog this run searched (sha256 ${corpus.hash}, the run's ${manifest.corpus.sha256}): search results, and so transcripts, would differ`,
      );
    }
    const settings = settingsFromFields(manifest.settings);
    const index = await openIndex(corpus, {
      retriever: settings.retriever,
      embeddingModel: settings.embeddingModel,
      dtype: settings.embeddingDtype,
      cacheDir: argv["cache-dir"],
      onProgress: progress,
    });
    // A run made on a server is rerun on the server its manifest names, with the same timeout and retries.
    const served = manifest.models.find((m) => m.id === model)?.server;
    const loaded =
      settings.server !== undefined
        ? await serverOpener(settings, argv["cache-dir"], {
            timeoutSeconds: served?.timeoutSeconds ?? 300,
            retries: served?.retries ?? 4,
          })(model)
        : await loadModel(model, {
            ...modelLoadOptions(settings),
            cacheDir: argv["cache-dir"],
            onProgress: progress,
          });
    try {
      await checkSameWeights(manifest, model, loaded.info.files, argv["cache-dir"]);
      // the same setting can decode otherwise: auto reading an edited generation_config.json
      const recorded = manifest.models.find((m) => m.id === model);
      const change = recorded && decodingChange(model, recorded.decoding, loaded.info.decoding);
      if (change) throw new UserError(`${change}: a rerun would not decode as the run did`);
      const result = await auditRuns({
        runs,
        model: loaded,
        index,
        maxNewTokens: settings.maxNewTokens,
        // the model's own tool-call format where its suite entry set one, else the run's
        dialect: modelDialect(loaded, recorded?.entry?.tool_format ?? settings.toolFormat).dialect,
        thinking: settings.thinking,
        wordings: manifest.wordings?.texts,
        sampling: modelSampling(samplingChoice(settings), loaded.info.decoding),
        withhold: settings.withhold,
        onProgress: progress,
      });
      console.log(
        argv.json
          ? JSON.stringify(result)
          : auditText(result, { dir, parallel: settings.parallel, reuseCache: settings.reuseCache }),
      );
    } finally {
      await loaded.dispose();
    }
  },
};

/** A rerun on other weights would measure nothing: refuse when the files' sha256 differ from the manifest's. */
async function checkSameWeights(
  manifest: RunManifest,
  model: string,
  files: readonly { readonly path: string }[],
  cacheDir: string,
): Promise<void> {
  const recorded = manifest.models.find((m) => m.id === model);
  if (!recorded) throw new UserError(`the manifest records no files for ${model}, so its weights cannot be checked`);
  const now = [];
  for (const f of files) now.push((await cachedSha256(f.path, cacheDir)).sha256);
  const then = recorded.files.map((f) => f.sha256);
  if (JSON.stringify(now) !== JSON.stringify(then))
    throw new UserError(
      `${model}: the model files' sha256 (${now.join(", ")}) differ from the run's (${then.join(", ")})`,
    );
}

/** Registers this file's commands on the command line. */
export const auditCommands = (y: Argv): Argv => y.command(audit);
