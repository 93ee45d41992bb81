// The search commands: thin shells over src/search/ (index, search, search-eval).
import type { Argv, CommandModule } from "yargs";
import { RETRIEVER_KINDS } from "../search/index.ts";
import type { Embedder, RetrieverKind, RetrieverScore, SearchEvaluation } from "../search/index.ts";
import type { ProgressTick } from "../common/index.ts";
import { checkedOptions, COUNT_RANGE, jsonOption, questionsOption, searchOptions, type BuiltArgs } from "./options.ts";
import { commandProgress } from "./progress-display.ts";
import { say, warn } from "./io.ts";

const display = commandProgress();
const progress = (message: string) => display.message(message);

/** Where a search command caches its index, and how it shows the index being built. */
function indexOpening(argv: { readonly "cache-dir": string }) {
  return { cacheDir: argv["cache-dir"], onProgress: progress, onTick: (t: ProgressTick) => display.tick(t) };
}

const indexBuilder = (y: Argv) => checkedOptions(y, { ...searchOptions, ...jsonOption });

const index: CommandModule<object, BuiltArgs<typeof indexBuilder>> = {
  command: "index",
  describe: "Build the search index for the blog (or load it from the cache) and report its size",
  builder: indexBuilder,
  handler: async (argv) => {
    const { openRunInputs } = await import("../runs/index.ts");
    const started = performance.now();
    const { corpus, index: opened } = await openRunInputs(
      { settings: argv },
      { content: argv.content, index: indexOpening(argv), note: warn },
    );
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    const report = {
      posts: corpus.posts.length,
      sections: corpus.sections.length,
      embedding_model: opened.embedding?.model ?? null,
      retriever: opened.retriever,
      from_cache: opened.fromCache,
      seconds,
    };
    if (argv.json) say(JSON.stringify(report));
    else {
      const model = opened.embedding ? `, ${opened.embedding.model} ${opened.embedding.dtype}` : "";
      say(
        `${report.posts} posts, ${report.sections} sections (${report.retriever}${model}): ${report.from_cache ? "loaded from cache" : "built"} in ${seconds} s`,
      );
    }
  },
};

const searchBuilder = (y: Argv) =>
  checkedOptions(y.positional("query", { type: "string", demandOption: true, describe: "What to search for" }), {
    ...searchOptions,
    ...jsonOption,
    k: { type: "number", default: 3, range: COUNT_RANGE, describe: "How many hits" },
  });

const search: CommandModule<object, BuiltArgs<typeof searchBuilder>> = {
  command: "search <query>",
  describe:
    "Search the blog as the study's workflow and agent do: top k sections with post, heading and first 60 words",
  builder: searchBuilder,
  handler: async (argv) => {
    const { openRunInputs } = await import("../runs/index.ts");
    const { index: opened } = await openRunInputs(
      { settings: argv },
      { content: argv.content, index: indexOpening(argv), note: warn },
    );
    const hits = await opened.search(String(argv.query), argv.k);
    if (argv.json) say(JSON.stringify(hits));
    else say(hits.map((h, i) => `${i + 1}. ${h.post} / ${h.heading}\n   ${h.snippet}`).join("\n") || "(no hits)");
  },
};

const searchEvalBuilder = (y: Argv) =>
  checkedOptions(y, {
    ...searchOptions,
    ...questionsOption,
    ...jsonOption,
    retriever: { choices: RETRIEVER_KINDS, describe: "Evaluate only this retriever", defaultDescription: "all three" },
  });

const searchEval: CommandModule<object, BuiltArgs<typeof searchEvalBuilder>> = {
  command: "search-eval",
  describe:
    "Run every question as a query and report, per retriever, how many have the right post first (found_at_1) and in " +
    "the top 3 (found_at_3), and the mean reciprocal rank of the right post's first hit; then each question not found " +
    "first, with its right post's rank under each retriever (--json: every question's, as ranks)",
  builder: searchEvalBuilder,
  handler: async (argv) => {
    const { evaluateSearch, formatMisses, loadEmbedder, openIndex } = await import("../search/index.ts");
    const { openRunInputs, runSearchOptions } = await import("../runs/index.ts");
    const { corpus, questions } = await openRunInputs(
      { settings: argv },
      { content: argv.content, questions: argv.questions, note: warn },
    );
    const kinds = argv.retriever ? [argv.retriever] : RETRIEVER_KINDS;
    // dense and hybrid share one loaded model.
    let embedder: Embedder | undefined;
    const results: Partial<Record<RetrieverKind, SearchEvaluation>> = {};
    for (const kind of kinds) {
      const options = runSearchOptions({ ...argv, retriever: kind }, indexOpening(argv));
      if (kind !== "bm25")
        embedder ??= await loadEmbedder(options.embeddingModel, {
          dtype: options.dtype,
          cacheDir: options.cacheDir,
          onProgress: progress,
        });
      const opened = await openIndex(corpus, { ...options, ...(embedder && kind !== "bm25" ? { embedder } : {}) });
      results[kind] = await evaluateSearch(opened, questions);
    }
    if (argv.json) say(JSON.stringify(results));
    else {
      // all_at_3 (both posts in the top 3) only means something when the file has two-post questions.
      const all = (r: RetrieverScore) => (r.all_at_3 === undefined ? "" : String(r.all_at_3).padStart(10));
      const allHeader = Object.values(results).some((r) => r.all_at_3 !== undefined) ? "all_at_3".padStart(10) : "";
      const rows = Object.entries(results).map(
        ([kind, r]) =>
          `${kind.padEnd(9)}${String(r.questions).padStart(10)}${String(r.found_at_1).padStart(11)}${String(r.found_at_3).padStart(11)}${all(r)}${r.mrr.toFixed(3).padStart(8)}`,
      );
      say(
        `${"retriever".padEnd(9)}${"questions".padStart(10)}${"found_at_1".padStart(11)}${"found_at_3".padStart(11)}${allHeader}${"mrr".padStart(8)}\n${rows.join("\n")}`,
      );
      const misses = formatMisses(results as Record<string, SearchEvaluation>);
      if (misses.length > 0)
        say(`\nnot first: the rank of each question's right post (- never found)\n${misses.join("\n")}`);
    }
  },
};

/** Registers this file's commands on the command line. */
export const searchCommands = (y: Argv): Argv => y.command(index).command(search).command(searchEval);
