// npm run bench: the study's cost under each execution mode (naive, cache reuse, 2/4/8 sequences) and the index's speed.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { loadCorpus, loadQuestions } from "../src/corpus/index.ts";
import { defaultThreads, loadModel } from "../src/llm/index.ts";
import { openIndex } from "../src/search/index.ts";
import {
  ensureTinyEmbedder,
  ensureTinyModel,
  TINY_MODEL_SHAPES,
  type TinyModelShape,
} from "../src/test-models/index.ts";
import { STUDY_DESIGNS } from "../src/designs/index.ts";
import { defaultCacheDir } from "../src/commands/index.ts";
import { benchIndex, ensureMiniLmEmbedder, type IndexFigures } from "./bench/index-bench.ts";
import { benchmarksMarkdown, replaceGenerated, rowsTable } from "./bench/report.ts";
import { benchRows } from "./bench/rows.ts";
import { MODES, runMode, type ModeSample } from "./bench/run-mode.ts";
import { BENCH_CONTEXT_SIZE, SERVER_MODES, withLlamaServer } from "./bench/server.ts";
import { median } from "./bench/stats.ts";
import { llamaServerDir } from "../test/helpers/llama-server.ts";
import { checkTargets, type ModeProfile } from "./bench/targets.ts";

const argv = await yargs(hideBin(process.argv))
  .scriptName("npm run bench --")
  .usage(
    "$0 [options]\n\nRuns a fixed slice of the study (first N questions, all four designs) under each execution mode, repeated, and reports medians.",
  )
  .option("model", {
    type: "string",
    describe: "A .gguf file to measure instead of the random-weight model of --shape",
  })
  .option("shape", {
    choices: TINY_MODEL_SHAPES.filter((s) => s !== "tiny"),
    default: "qwen2.5-0.5b" as TinyModelShape,
    describe: "Shape of the random-weight model (1.5b and 3b need a GPU to finish)",
  })
  .option("quick", {
    type: "boolean",
    default: false,
    describe:
      "A small slice (2 questions, 1 repeat, 16 new tokens): about 10 minutes with the 0.5B shape on 2 idle cores (17 on a loaded one)",
  })
  .option("questions", { type: "number", describe: "Questions in the slice (default 8; --quick 2)" })
  .option("repeats", { type: "number", describe: "Runs of each mode; figures are medians (default 3; --quick 1)" })
  .option("max-new-tokens", {
    type: "number",
    describe: "New tokens per call, fixed because random weights rarely stop (default 32; --quick 16)",
  })
  .option("retriever", {
    choices: ["hybrid", "bm25"] as const,
    default: "hybrid" as const,
    describe: "The study's search: hybrid with the generated tiny embedder, or bm25",
  })
  .option("index", {
    type: "boolean",
    default: true,
    describe: "Also time the index with a MiniLM-sized embedder (--no-index skips it)",
  })
  .option("server", {
    type: "boolean",
    describe:
      "Also run the slice through llama-server at 1, 4 and 8 slots (default: when scripts/build-llama-server.sh has built it; --no-server skips)",
  })
  .option("gpu", { type: "boolean", default: true, describe: "Use a GPU when one is found" })
  .option("threads", { type: "number", describe: "CPU threads per context (default: the runtime's choice)" })
  .option("json", {
    type: "boolean",
    default: false,
    describe: "Print the rows as a JSON array instead of a table (writes nothing)",
  })
  .option("write", { type: "boolean", default: true, describe: "Write BENCHMARKS.md (--no-write: print only)" })
  .option("content", { type: "string", default: "content/posts" })
  .option("questions-file", { type: "string", default: "questions/questions.jsonl" })
  .option("cache-dir", { type: "string", default: defaultCacheDir() })
  .check((a) => {
    for (const k of ["questions", "repeats", "max-new-tokens", "threads"] as const) {
      const v = a[k];
      if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new Error(`--${k} must be a positive integer`);
    }
    return true;
  })
  .strict()
  .help()
  .parse();

const log = (m: string) => console.error(m);
// Other processes on the machine share its cores: the load average before and after says how much.
const loadBefore = os.loadavg()[0]!;
const questionCount = argv.questions ?? (argv.quick ? 2 : 8);
const repeats = argv.repeats ?? (argv.quick ? 1 : 3);
const maxNewTokens = argv["max-new-tokens"] ?? (argv.quick ? 16 : 32);
const cacheDir = path.resolve(argv["cache-dir"]);

// The model: a file the user names, or random weights with a real Qwen2.5 shape, generated once into the cache.
const benchDir = path.join(cacheDir, "bench");
const modelPath =
  argv.model ??
  (
    await ensureTinyModel({
      out: path.join(benchDir, `${argv.shape}-seed1.gguf`),
      shape: argv.shape,
      seed: 1,
      cacheDir: benchDir,
    })
  ).path;
const load = () =>
  loadModel(modelPath, { cacheDir, gpu: argv.gpu, threads: argv.threads, contextSize: BENCH_CONTEXT_SIZE });
const serverBuilt = llamaServerDir() !== undefined;
if (argv.server === true && !serverBuilt) {
  console.error("bench: --server needs llama-server: run scripts/build-llama-server.sh first");
  process.exit(1);
}
const modes = (argv.server ?? serverBuilt) ? [...MODES, ...SERVER_MODES] : MODES;
if (!serverBuilt && argv.server === undefined)
  log("bench: no llama-server built (scripts/build-llama-server.sh): its rows are left out");

const corpus = await loadCorpus(argv.content);
const questions = (await loadQuestions(argv["questions-file"], corpus)).slice(0, questionCount);
const tinyEmbedder = path.join(cacheDir, "tiny", "tiny-embedder");
if (argv.retriever === "hybrid") ensureTinyEmbedder(tinyEmbedder, { seed: 42, shape: "tiny" });
const blogIndex = await openIndex(corpus, {
  retriever: argv.retriever,
  embeddingModel: tinyEmbedder,
  dtype: "fp32",
  cacheDir,
});
const slice = { designs: STUDY_DESIGNS, questions, maxNewTokens };
log(
  `bench: ${modelPath}, ${questions.length} questions x ${STUDY_DESIGNS.length} designs, ${maxNewTokens} new tokens a call, ${repeats} repeat(s), ${argv.retriever} search`,
);

// Warm-up, untimed: the first pass over a memory-mapped model pages its weights in.
{
  const model = await load();
  const [runtime] = await model.openRuntimes(1, { reuseCache: false });
  await runtime!.generate({ messages: [{ role: "user", content: "warm up" }], maxTokens: 2 });
  await model.dispose();
}

const samples: ModeSample[][] = modes.map(() => []);
for (let r = 0; r < repeats; r++) {
  for (const [i, mode] of modes.entries()) {
    const s =
      mode.backend === "llama-server"
        ? // The server gets the threads the in-process runtime used (naive, measured first in every repeat).
          await withLlamaServer(modelPath, mode, samples[0]![0]!.info.threads, cacheDir, (server) =>
            runMode({ mode, slice, index: blogIndex, load: server.load, counters: server.counters }),
          )
        : await runMode({ mode, slice, index: blogIndex, load });
    samples[i]!.push(s);
    log(
      `repeat ${r + 1}/${repeats} ${mode.name}: ${s.seconds.toFixed(1)} s wall, ${s.busySeconds.toFixed(1)} s busy, ${s.calls} calls, ${s.tokensGenerated} generated, ${s.tokensEvaluated}/${s.tokensRead} evaluated/read${s.refusedRuns > 0 ? `, ${s.refusedRuns} runs refused` : ""}`,
    );
  }
}
const rows = benchRows(modes, samples);
const profiles: ModeProfile[] = modes.map((mode, i) => ({
  mode: mode.name,
  secondsPerCall: median(samples[i]!.map((s) => s.callSeconds / s.calls)),
  concurrency: median(samples[i]!.map((s) => s.callSeconds / s.busySeconds)),
}));

let index: IndexFigures | undefined;
if (argv.index) {
  log("bench: timing the index with a MiniLM-sized embedder");
  index = await benchIndex(corpus, questions, ensureMiniLmEmbedder(cacheDir));
}

if (argv.json) {
  console.log(JSON.stringify(rows));
} else {
  console.log(rowsTable(rows));
  const info = samples[0]![0]!.info;
  const modelBytes = info.files.reduce((a, f) => a + f.bytes, 0);
  const threads = argv.threads ?? defaultThreads(modelBytes, os.cpus().length);
  const reuseSample = samples[MODES.findIndex((mo) => mo.name === "cache-reuse")]?.[0];
  const targets = checkTargets({
    rows,
    profiles,
    index,
    cores: os.cpus().length,
    threadsPerContext: threads,
    questionsPerDesign: questions.length,
    agentCallsPerRun: reuseSample ? reuseSample.agentCalls / Math.max(1, reuseSample.agentRuns) : Number.NaN,
  });
  for (const t of targets) log(`${t.met ? "met   " : "MISSED"} ${t.target}: ${t.measured}`);
  if (argv.write) {
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const doc = benchmarksMarkdown({
      date: new Date().toISOString().slice(0, 10),
      command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
      machine: `${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.arch()}; backend ${info.backend}${info.deviceNames.length ? ` (${info.deviceNames.join(", ")})` : ""}, ${threads} thread(s) per context`,
      versions: `Node ${process.version}, node-llama-cpp ${info.nodeLlamaCppVersion}, llama.cpp ${info.llamaCppRelease}`,
      model: argv.model
        ? `${argv.model} (${(modelBytes / 2 ** 20).toFixed(0)} MiB)`
        : `random weights, ${argv.shape} shape, f16 (${(modelBytes / 2 ** 20).toFixed(0)} MiB), seed 1; greedy; context ${info.contextSize}`,
      slice: `first ${questions.length} questions x all 4 designs (${questions.length * STUDY_DESIGNS.length} runs), ${maxNewTokens} new tokens a call at most, ${argv.retriever} search${argv.retriever === "hybrid" ? " (tiny embedder)" : ""}`,
      repeats,
      rows,
      profiles,
      index,
      targets,
      notes: [
        `Load average (1 min) ${loadBefore.toFixed(1)} at the start and ${os.loadavg()[0]!.toFixed(1)} at the end, on ${os.cpus().length} cores: ` +
          `the end figure includes the benchmark's own threads; a start figure near or above the core count means other processes ` +
          `were competing for the CPU, and every figure is then slower and noisier than on an idle machine.`,
      ],
    });
    const existing = existsSync("BENCHMARKS.md") ? readFileSync("BENCHMARKS.md", "utf8") : "# Benchmarks\n";
    writeFileSync("BENCHMARKS.md", replaceGenerated(existing, doc));
    log("bench: wrote BENCHMARKS.md");
  }
}
