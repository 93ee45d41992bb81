// npm run bench: the study's cost under each execution mode (naive, cache reuse, 2/4/8 sequences), the parallel modes
// on a longer slice, node-llama-cpp's prebuilt binary against the local build and llama-server, samples sharing their
// prompt, and the index's speed.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { defaultThreads, loadModel } from "../src/llm/index.ts";
import { ensureTinyModel, TINY_MODEL_SHAPES, type TinyModelShape } from "../src/test-models/index.ts";
import { STUDY_DESIGNS } from "../src/designs/index.ts";
import { defaultCacheDir } from "../src/commands/index.ts";
import { threadpoolSizeFor } from "../bin/threadpool.cjs";
import { localCpuBuild, runInChild, type Binary } from "./bench/binaries.ts";
import { benchIndex, ensureMiniLmEmbedder, type IndexFigures } from "./bench/index-bench.ts";
import { benchmarksMarkdown, replaceGenerated, rowsTable } from "./bench/report.ts";
import { benchRows, binaryRows, samplesRows } from "./bench/rows.ts";
import { MODES, runMode, type Mode, type ModeSample, type Slice } from "./bench/run-mode.ts";
import { BENCH_CONTEXT_SIZE, SERVER_MODES, withLlamaServer } from "./bench/server.ts";
import { openBenchInputs, studySlice, warmUp } from "./bench/slice.ts";
import { median } from "./bench/stats.ts";
import { llamaServerDir } from "../test/helpers/llama-server.ts";
import { BINARY_NAMES, checkTargets, type ModeProfile } from "./bench/targets.ts";

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
  .option("parallel-questions", {
    type: "number",
    describe:
      "Questions in the longer slice the parallel modes run again on, against one sequence (default 16; --quick 4; 0 leaves them out)",
  })
  .option("samples", {
    type: "number",
    describe:
      "K of the samples table: --samples K against K = 1, sampled, on --sample-questions questions (default 8; 0 leaves it out)",
  })
  .option("sample-questions", { type: "number", default: 2, describe: "Questions in the samples table's slice" })
  .option("binaries", {
    type: "boolean",
    describe:
      "Also run the slice on node-llama-cpp's prebuilt binary and on the local build, each in its own process (default: when `npm run build:cpu` has built one and the bench runs on the CPU; --no-binaries skips)",
  })
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
    for (const k of ["questions", "repeats", "max-new-tokens", "threads", "sample-questions"] as const) {
      const v = a[k];
      if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new Error(`--${k} must be a positive integer`);
    }
    for (const k of ["parallel-questions", "samples"] as const) {
      const v = a[k];
      if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw new Error(`--${k} must be 0 or a positive integer`);
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
const parallelQuestions = argv["parallel-questions"] ?? (argv.quick ? 4 : 16);
const samplesK = argv.samples ?? 8;
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
const localBuilt = localCpuBuild() !== undefined;
if (argv.binaries === true && !localBuilt) {
  console.error("bench: --binaries needs a local build of llama.cpp: run `npm run build:cpu` first");
  process.exit(1);
}
if (!localBuilt && argv.binaries === undefined)
  log("bench: no local build of llama.cpp (npm run build:cpu): the binaries' table is left out");
// The parallel modes again on the longer slice: one sequence, then 8 batched on one context and 8 contexts.
const parallelModes = ["cache-reuse", "cache-reuse-x8", "cache-reuse-x8-separate"].map(
  (name) => MODES.find((m) => m.name === name)!,
);

const inputs = {
  content: argv.content,
  questionsFile: argv["questions-file"],
  retriever: argv.retriever,
  cacheDir,
};
const { corpus, questions: allQuestions, index: blogIndex } = await openBenchInputs(inputs);
const slice = studySlice(allQuestions, questionCount, maxNewTokens);
const questions = slice.questions;
const parallelSlice = studySlice(allQuestions, parallelQuestions, maxNewTokens);
log(
  `bench: ${modelPath}, ${questions.length} questions x ${STUDY_DESIGNS.length} designs, ${maxNewTokens} new tokens a call, ${repeats} repeat(s), ${argv.retriever} search` +
    (parallelQuestions > 0 ? `; parallel modes again on ${parallelSlice.questions.length} questions` : ""),
);

await warmUp(load);

/** The threads the in-process runtime chose (naive runs first in every repeat); the server and children get them. */
const runtimeThreads = (): number => samples[0]![0]!.info.threads;
/** `mode` on the first `questions` questions in a child process: on `binary` when given, else as the bench loads. */
const inChild = (mode: Mode, questions: number, on: { binary?: Binary; gpu: boolean }): Promise<ModeSample> =>
  runInChild({
    mode,
    ...on,
    inputs,
    questions,
    maxNewTokens,
    modelPath,
    threads: runtimeThreads(),
    contextSize: BENCH_CONTEXT_SIZE,
  });
/**
 * An in-process mode as `npm run` would run it: here, on this process's libuv pool of one thread, or, where
 * bin/threadpool.cjs gives the mode more (separate contexts: a thread each, and one more), in a child with that pool.
 */
const measureInProcess = (mode: Mode, on: Slice, questions: number): Promise<ModeSample> =>
  threadpoolSizeFor(mode) === 1
    ? runMode({ mode, slice: on, index: blogIndex, load })
    : inChild(mode, questions, { gpu: argv.gpu });
const measured = (s: ModeSample) =>
  `${s.seconds.toFixed(1)} s wall, ${s.busySeconds.toFixed(1)} s busy, ${s.calls} calls, ${s.tokensGenerated} generated, ${s.tokensEvaluated}/${s.tokensRead} evaluated/read${s.refusedRuns > 0 ? `, ${s.refusedRuns} runs refused` : ""}`;
const samples: ModeSample[][] = modes.map(() => []);
const parallelSamples: ModeSample[][] = parallelModes.map(() => []);
const binaries: Binary[] = ["prebuilt", "localBuild"];
const binarySamples: ModeSample[][] = binaries.map(() => []);
let runBinaries = false;
const loadAtRepeats: number[] = [];
for (let r = 0; r < repeats; r++) {
  const repeat = `repeat ${r + 1}/${repeats}`;
  loadAtRepeats.push(os.loadavg()[0]!);
  for (const [i, mode] of modes.entries()) {
    const s =
      mode.backend === "llama-server"
        ? await withLlamaServer(modelPath, mode, runtimeThreads(), cacheDir, (server) =>
            runMode({ mode, slice, index: blogIndex, load: server.load, counters: server.counters }),
          )
        : await measureInProcess(mode, slice, questionCount);
    samples[i]!.push(s);
    log(`${repeat} ${mode.name}: ${measured(s)}`);
  }
  // The binaries are CPU builds: measured where the in-process modes ran on the CPU, with the threads they used.
  const info = samples[0]![0]!.info;
  runBinaries = argv.binaries ?? (localBuilt && info.backend === "cpu");
  for (const [i, binary] of binaries.entries()) {
    if (!runBinaries) break;
    const s = await inChild(MODES.find((m) => m.name === "cache-reuse")!, questionCount, { binary, gpu: false });
    binarySamples[i]!.push(s);
    log(
      `${repeat} ${binary} binary: ${measured(s)}, ${s.promptSeconds.toFixed(1)} s prompt, ${s.decodeSeconds.toFixed(1)} s decode`,
    );
  }
  for (const [i, mode] of parallelModes.entries()) {
    if (parallelQuestions === 0) break;
    const s = await measureInProcess(mode, parallelSlice, parallelQuestions);
    parallelSamples[i]!.push(s);
    log(`${repeat} ${mode.name} on ${parallelSlice.questions.length} questions: ${measured(s)}`);
  }
}
const profilesOf = (ms: readonly Mode[], ss: readonly ModeSample[][]): ModeProfile[] =>
  ms.map((mode, i) => ({
    mode: mode.name,
    secondsPerCall: median(ss[i]!.map((s) => s.callSeconds / s.calls)),
    concurrency: median(ss[i]!.map((s) => s.callSeconds / s.busySeconds)),
  }));
const rows = benchRows(modes, samples);
const profiles = profilesOf(modes, samples);
const parallel =
  parallelQuestions > 0
    ? {
        slice: `first ${parallelSlice.questions.length} questions x all 4 designs (${parallelSlice.questions.length * STUDY_DESIGNS.length} runs), ${maxNewTokens} new tokens a call at most`,
        rows: benchRows(parallelModes, parallelSamples),
        profiles: profilesOf(parallelModes, parallelSamples),
      }
    : undefined;
const serverSamples = samples[modes.findIndex((m) => m.name === "llama-server")];
const binaryTable = runBinaries
  ? binaryRows([
      { name: BINARY_NAMES.prebuilt, samples: binarySamples[0]! },
      { name: BINARY_NAMES.local, samples: binarySamples[1]! },
      ...(serverSamples ? [{ name: BINARY_NAMES.server, samples: serverSamples }] : []),
    ])
  : undefined;

// Samples: token counts, which do not depend on timing, so one run of each K, one after the other.
const sampleSlice = studySlice(allQuestions, argv["sample-questions"], maxNewTokens);
const sampleRuns: { samples: number; sample: ModeSample }[] = [];
for (const k of samplesK > 0 ? [1, samplesK] : []) {
  const mode: Mode = { name: `samples-${k}`, parallel: 1, reuseCache: true, sharedContext: false, samples: k };
  const sample = await runMode({ mode, slice: sampleSlice, index: blogIndex, load });
  log(`samples ${k}: ${measured(sample)}`);
  sampleRuns.push({ samples: k, sample });
}
const samplesTable = sampleRuns.length > 0 ? samplesRows(sampleRuns) : undefined;

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
    ...(parallel ? { parallel: { ...parallel, questionsPerDesign: parallelSlice.questions.length } } : {}),
    ...(binaryTable ? { binaries: binaryTable } : {}),
  });
  for (const t of targets) log(`${t.met ? "met   " : "MISSED"} ${t.target}: ${t.measured}`);
  if (argv.write) {
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const doc = benchmarksMarkdown({
      date: new Date().toISOString().slice(0, 10),
      command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
      machine: `${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.arch()}; backend ${info.backend}${info.deviceNames.length ? ` (${info.deviceNames.join(", ")})` : ""}, ${threads} thread(s) per context`,
      versions:
        `Node ${process.version}, node-llama-cpp ${info.nodeLlamaCppVersion}, llama.cpp ${info.llamaCppRelease}` +
        (info.binary
          ? ` (in process: ${info.binary.buildType === "localBuild" ? "the local build" : "the prebuilt binary"})`
          : ""),
      model: argv.model
        ? `${argv.model} (${(modelBytes / 2 ** 20).toFixed(0)} MiB)`
        : `random weights, ${argv.shape} shape, f16 (${(modelBytes / 2 ** 20).toFixed(0)} MiB), seed 1; greedy; context ${info.contextSize}`,
      slice: `first ${questions.length} questions x all 4 designs (${questions.length * STUDY_DESIGNS.length} runs), ${maxNewTokens} new tokens a call at most, ${argv.retriever} search${argv.retriever === "hybrid" ? " (tiny embedder)" : ""}`,
      repeats,
      rows,
      profiles,
      parallel,
      binaries: binaryTable ? { threads: info.threads, rows: binaryTable } : undefined,
      samples: samplesTable
        ? {
            slice:
              `first ${sampleSlice.questions.length} questions x all 4 designs, sampled as \`run --samples K --sampling model --seed 0\` ` +
              `samples (the model's sampling values: the bench loads no generation_config.json, so Transformers' defaults), ` +
              `one sequence with cache reuse, ${maxNewTokens} new tokens a call at most`,
            rows: samplesTable,
          }
        : undefined,
      index,
      targets,
      notes: [
        `Load average (1 min) ${loadBefore.toFixed(1)} at the start, ${loadAtRepeats.map((l) => l.toFixed(1)).join(", ")} as each repeat began, ` +
          `and ${os.loadavg()[0]!.toFixed(1)} at the end, on ${os.cpus().length} cores: ` +
          `the later figures include the benchmark's own threads; a start figure near or above the core count means other processes ` +
          `were competing for the CPU, and every figure is then slower and noisier than on an idle machine.`,
      ],
    });
    const existing = existsSync("BENCHMARKS.md") ? readFileSync("BENCHMARKS.md", "utf8") : "# Benchmarks\n";
    writeFileSync("BENCHMARKS.md", replaceGenerated(existing, doc));
    log("bench: wrote BENCHMARKS.md");
  }
}
