// The study commands: thin shells over src/study/.
import type { Argv, CommandModule } from "yargs";
import { QUANTS, type Quant } from "../llm/index.ts";
import { splitQuestionSets, strictRows, twoPostRows } from "../scoring/index.ts";
import { openRunFolder, strictTableMarkdown, twoPostTableMarkdown, writeReport } from "../report/index.ts";
import { runStudy, startManifest, STUDY_MAX_NEW_TOKENS, transcriptCostTable, DESIGN_IDS } from "../study/index.ts";
import { UserError } from "../errors.ts";
import { jsonOption, questionsOption, runFolderOptions, runPositional, searchOptions } from "./options.ts";
import { checkOfflineInputs } from "./offline-check.ts";
import { modelIds, modelOpener, parseDesigns, prepareStudy, progress, scoreAndPrint } from "./study-setup.ts";

const cost: CommandModule<object, { prefix: number; "per-turn": number; price: number; json: boolean }> = {
  command: "cost",
  describe: "The study's transcript-cost table: tokens and dollars for 5, 10, 20 and 50 agent turns",
  builder: (y) =>
    y
      .option("prefix", { type: "number", default: 5000, describe: "Tokens in the fixed prefix (P)" })
      .option("per-turn", { type: "number", default: 1500, describe: "New tokens per turn (g)" })
      .option("price", { type: "number", default: 3, describe: "Dollars per million input tokens" })
      .option("json", { type: "boolean", default: false, describe: "Print JSON rows" }),
  handler: (argv) => {
    const rows = transcriptCostTable({ prefix: argv.prefix, perTurn: argv["per-turn"], pricePerMillion: argv.price });
    if (argv.json) return void console.log(JSON.stringify(rows));
    const n = (x: number) => x.toLocaleString("en-US");
    console.log("| turns | final context | tokens read in all | uncached | cached |\n|---|---|---|---|---|");
    for (const r of rows) {
      console.log(`| ${r.turns} | ${n(r.finalContext)} | ${n(r.tokensRead)} | $${r.costUncached.toFixed(2)} | $${r.costCached.toFixed(2)} |`);
    }
  },
};

/** Options of every command that runs models over the study. */
export function studyRunOptions<T>(y: Argv<T>): Argv<T & StudyRunArgs> {
  const built = y
    .options(searchOptions)
    .options(questionsOption)
    .option("designs", { type: "string", alias: "variants", describe: `Designs to run, comma-separated (default all: ${DESIGN_IDS.join(",")})` })
    .option("limit", { type: "number", describe: "Only the first N questions" })
    .option("parallel", { type: "number", default: 1, describe: "Questions generated at once, one sequence each" })
    .option("reuse-cache", { type: "boolean", default: true, describe: "Reuse each sequence's KV cache across calls (--no-reuse-cache evaluates every prompt from scratch, as the study did)" })
    .option("shared-context", {
      type: "boolean",
      default: false,
      describe: "Batch the --parallel sequences on one context (faster on a GPU; greedy near-ties may flip: check with audit)",
    })
    .option("max-new-tokens", { type: "number", default: STUDY_MAX_NEW_TOKENS, describe: "New tokens per call at most (the study's 200)" })
    .option("out", { type: "string", default: "runs/default", describe: "Run folder: answers.jsonl, tables, manifest" })
    .option("fresh", { type: "boolean", default: false, describe: "Drop the folder's earlier answers instead of resuming" })
    .option("gpu", { type: "boolean", default: true, describe: "Use a GPU when one is found (--no-gpu forces the CPU)" })
    .option("threads", { type: "number", describe: "CPU threads for llama.cpp (default: chosen by the runtime)" })
    .option("context-size", { type: "number", describe: "Context size in tokens per sequence (default: chosen by the runtime)" })
    .option("chat-template", { type: "string", describe: "Jinja chat template file, for a model whose GGUF has none" })
    .check((argv) => {
      if (!Number.isInteger(argv.parallel) || argv.parallel < 1) throw new UserError("--parallel must be a positive integer");
      if (argv.limit !== undefined && (!Number.isInteger(argv.limit) || argv.limit < 1)) throw new UserError("--limit must be a positive integer");
      return true;
    });
  return built as unknown as Argv<T & StudyRunArgs>;
}

export interface StudyRunArgs {
  content: string;
  questions: string;
  retriever: "bm25" | "dense" | "hybrid";
  "embedding-model": string;
  "embedding-dtype": "fp32" | "fp16" | "q8";
  "cache-dir": string;
  designs?: string;
  limit?: number;
  parallel: number;
  "reuse-cache": boolean;
  "shared-context": boolean;
  "max-new-tokens": number;
  out: string;
  fresh: boolean;
  gpu: boolean;
  threads?: number;
  "context-size"?: number;
  "chat-template"?: string;
}

/** The body of run, smoke and experiment: answer every pending (model, design, question), then print the tables. */
export async function runStudyCommand(
  argv: StudyRunArgs,
  models: readonly string[],
  options: { report?: boolean; modelHint?: string } = {},
): Promise<void> {
  const designs = parseDesigns(argv.designs);
  // Offline, everything missing is named at once, before minutes of work that would stop at the first of them.
  const needed = { models, retriever: argv.retriever, embeddingModel: argv["embedding-model"], embeddingDtype: argv["embedding-dtype"], cacheDir: argv["cache-dir"] };
  await checkOfflineInputs(needed, options.modelHint ?? "--model PATH runs a local .gguf file");
  const inputs = await prepareStudy({
    content: argv.content,
    questions: argv.questions,
    ...(argv.limit !== undefined ? { limit: argv.limit } : {}),
    retriever: argv.retriever,
    embeddingModel: argv["embedding-model"],
    embeddingDtype: argv["embedding-dtype"],
    cacheDir: argv["cache-dir"],
  });
  const settings = {
    designs,
    questions: inputs.questions,
    parallel: argv.parallel,
    reuseCache: argv["reuse-cache"],
    sharedContext: argv["shared-context"],
    maxNewTokens: argv["max-new-tokens"],
  };
  // Checked before any model loads: a folder's answers must all come from one setup.
  const manifest = startManifest(
    argv.out,
    {
      settings: {
        models,
        designs,
        questionsFile: argv.questions,
        limit: argv.limit,
        parallel: argv.parallel,
        reuseCache: argv["reuse-cache"],
        sharedContext: argv["shared-context"],
        maxNewTokens: argv["max-new-tokens"],
        retriever: argv.retriever,
        embeddingModel: argv["embedding-model"],
        embeddingDtype: argv["embedding-dtype"],
        contentDir: argv.content,
        gpu: argv.gpu,
        threads: argv.threads,
        contextSize: argv["context-size"],
        chatTemplate: argv["chat-template"],
      },
      corpus: inputs.corpus,
      questionCount: inputs.questions.length,
      embedding: inputs.index.embedding,
    },
    { fresh: argv.fresh, cacheDir: argv["cache-dir"], onProgress: progress },
  );
  const open = modelOpener({
    cacheDir: argv["cache-dir"],
    gpu: argv.gpu,
    ...(argv.threads !== undefined ? { threads: argv.threads } : {}),
    ...(argv["context-size"] !== undefined ? { contextSize: argv["context-size"] } : {}),
    ...(argv["chat-template"] !== undefined ? { chatTemplate: argv["chat-template"] } : {}),
  });
  const summary = await runStudy({
    outDir: argv.out,
    models,
    openModel: async (id) => {
      const model = await open(id);
      try {
        await manifest.recordModel(model.info);
      } catch (error) {
        await model.dispose();
        throw error;
      }
      return model;
    },
    tools: inputs.index,
    settings,
    fresh: argv.fresh,
    onProgress: progress,
  });
  manifest.finish(summary);
  progress(`${summary.ran} runs done, ${summary.skipped} already logged, in ${summary.answersFile}`);
  scoreAndPrint(argv.out, inputs.corpus, inputs.questions.length);
  if (options.report) progress(`report: ${await writeReport(argv.out, { content: argv.content })}`);
}

const run: CommandModule<object, StudyRunArgs & { model?: string[]; quant: Quant }> = {
  command: "run",
  describe: "Run the study: every design on every question for each model, logged to <out>/answers.jsonl (resumable)",
  builder: (y) =>
    studyRunOptions(y)
      .option("model", { type: "string", array: true, describe: "A .gguf path, an hf: URI, or qwen2.5-1.5b / qwen2.5-3b; repeat for several (default: both study models)" })
      .option("quant", { choices: QUANTS, default: "f16" as Quant, describe: "Weights of the default models: f16 (closest to the study's bf16), q8_0 or q4_k_m" }) as Argv<
      StudyRunArgs & { model?: string[]; quant: Quant }
    >,
  handler: async (argv) => runStudyCommand(argv, modelIds(argv.model, argv.quant)),
};

const rescore: CommandModule<object, { file: string; content?: string; force: boolean; json: boolean }> = {
  command: "rescore <file>",
  describe:
    "The study's strict rescore of a logged run: classify each source line (none / one real / several / invented); " +
    "two-post questions get their own table (exactly the gold posts / subset / plus others / none of them / no source line)",
  builder: (y) => y.positional("file", runPositional).options(runFolderOptions).options(jsonOption),
  handler: async (argv) => {
    const folder = await openRunFolder(argv.file, { content: argv.content, force: argv.force });
    const slugs = folder.slugs;
    // One table per question set: the study's strict rescore over one-post questions, the two-post table over the rest.
    const { onePost, twoPost } = splitQuestionSets(folder.records);
    const rows = strictRows(onePost, slugs);
    const twoPostTable = twoPostRows(twoPost, slugs);
    if (argv.json) {
      // A log of the study's questions prints the study's rows, as before; a log with two-post questions, both sets.
      console.log(JSON.stringify(twoPost.length === 0 ? rows : { one_post: rows, two_post: twoPostTable }));
      return;
    }
    const tables: string[] = [];
    if (onePost.length > 0 || twoPost.length === 0) tables.push(strictTableMarkdown(rows));
    if (twoPost.length > 0) tables.push(twoPostTableMarkdown(twoPostTable));
    console.log(tables.join("\n\n"));
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const studyCommands: CommandModule<any, any>[] = [run, rescore, cost];
