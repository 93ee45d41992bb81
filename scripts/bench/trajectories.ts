// npm run bench:trajectories: what a run costs when replies stop where a model stops. The trained agent model writes
// short replies and calls tools, the random-weight model of the same family writes to the token limit; both run the
// study's four designs on the same slice at the study's 200 new tokens, one sequence with cache reuse. Writes its
// own section of BENCHMARKS.md (between its markers), beside what npm run bench writes.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { loadModel } from "../../src/llm/index.ts";
import { ensureTinyModel, TRAINED_MODEL_FILE } from "../../src/test-models/index.ts";
import { STUDY_DESIGNS } from "../../src/designs/index.ts";
import { defaultCacheDir } from "../../src/commands/index.ts";
import { MODES, runMode, type ModeSample } from "./run-mode.ts";
import { openBenchInputs, studySlice, warmUp } from "./slice.ts";
import { median } from "./stats.ts";

const BEGIN = "<!-- written by npm run bench:trajectories: from here to the end marker -->";
const END = "<!-- end of what npm run bench:trajectories writes -->";
/** The study's limit: the trained model's replies end well before it, random weights' rarely do. */
const STUDY_MAX_NEW_TOKENS = 200;

const argv = await yargs(hideBin(process.argv))
  .scriptName("npm run bench:trajectories --")
  .usage(
    "$0 [options]\n\nThe study's four designs on the trained and the random-weight model: tokens and seconds per run.",
  )
  .option("questions", { type: "number", default: 10, describe: "Questions in the slice (the first N)" })
  .option("repeats", { type: "number", default: 3, describe: "Runs of each model; seconds are medians" })
  .option("write", { type: "boolean", default: true, describe: "Write BENCHMARKS.md (--no-write: print only)" })
  .option("cache-dir", { type: "string", default: defaultCacheDir() })
  .check((a) => {
    for (const k of ["questions", "repeats"] as const)
      if (!Number.isInteger(a[k]) || a[k] < 1) throw new Error(`--${k} must be a positive integer`);
    return true;
  })
  .strict()
  .help()
  .parse();

const cacheDir = path.resolve(argv["cache-dir"]);
const tinyDir = path.join(cacheDir, "tiny");
const models = [
  {
    name: "trained agent model",
    path: (
      await ensureTinyModel({ out: path.join(tinyDir, TRAINED_MODEL_FILE), weights: "trained", cacheDir: tinyDir })
    ).path,
  },
  {
    name: "random weights (tiny shape, seed 1)",
    path: (
      await ensureTinyModel({ out: path.join(tinyDir, "tiny-seed1.gguf"), shape: "tiny", seed: 1, cacheDir: tinyDir })
    ).path,
  },
];
const inputs = {
  content: "content/posts",
  questionsFile: "questions/questions.jsonl",
  retriever: "bm25" as const,
  cacheDir,
};
const { questions, index } = await openBenchInputs(inputs);
const slice = studySlice(questions, argv.questions, STUDY_MAX_NEW_TOKENS);
const mode = MODES.find((m) => m.name === "cache-reuse")!;
const runs = slice.questions.length * STUDY_DESIGNS.length;

interface Row {
  readonly model: string;
  readonly callsPerRun: number;
  readonly promptTokensPerRun: number;
  readonly decodeTokensPerRun: number;
  readonly secondsPerRun: number;
}

const rows: Row[] = [];
for (const model of models) {
  // threads 1: both models are tiny, and one thread is what the runtime picks for them
  const load = () => loadModel(model.path, { cacheDir, gpu: false, threads: 1 });
  await warmUp(load);
  const samples: ModeSample[] = [];
  for (let r = 0; r < argv.repeats; r++) {
    const s = await runMode({ mode, slice, index, load });
    console.error(`${model.name}, repeat ${r + 1}/${argv.repeats}: ${s.seconds.toFixed(1)} s, ${s.calls} calls`);
    samples.push(s);
  }
  // Token counts do not depend on timing (greedy): the first repeat's; seconds: the median.
  const first = samples[0]!;
  rows.push({
    model: model.name,
    callsPerRun: first.calls / runs,
    promptTokensPerRun: first.tokensRead / runs,
    decodeTokensPerRun: first.tokensGenerated / runs,
    secondsPerRun: median(samples.map((s) => s.seconds)) / runs,
  });
}

const [trained, random] = rows as [Row, Row];
const table = [
  "| model | model calls per run | prompt tokens per run | decode tokens per run | seconds per run |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.model} | ${r.callsPerRun.toFixed(2)} | ${r.promptTokensPerRun.toFixed(0)} | ${r.decodeTokensPerRun.toFixed(1)} | ${r.secondsPerRun.toFixed(3)} |`,
  ),
];
const section = [
  BEGIN,
  "## Trajectories: replies that stop where a model stops",
  "",
  `\`npm run bench:trajectories\`, ${new Date().toISOString().slice(0, 10)}: the study's four designs on the first ` +
    `${slice.questions.length} questions (${runs} runs), BM25, ${STUDY_MAX_NEW_TOKENS} new tokens a call at most, one ` +
    `sequence with cache reuse, 1 thread, in process; seconds are the median of ${argv.repeats} repeats, tokens the ` +
    `runs' own counts. ${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores.`,
  "",
  ...table,
  "",
  `The trained model decodes ${(trained.decodeTokensPerRun / random.decodeTokensPerRun).toFixed(2)}x the random ` +
    `model's tokens per run and reads ${(trained.promptTokensPerRun / random.promptTokensPerRun).toFixed(2)}x its ` +
    `prompt tokens (its agents call tools, so their runs have more turns); a run takes ` +
    `${(trained.secondsPerRun / random.secondsPerRun).toFixed(2)}x the time. Both are 128-wide or smaller, so these ` +
    "are the harness's costs per run, not a real model's.",
  END,
].join("\n");

console.log(table.join("\n"));
if (argv.write) {
  const existing = existsSync("BENCHMARKS.md") ? readFileSync("BENCHMARKS.md", "utf8") : "# Benchmarks\n";
  const begin = existing.indexOf(BEGIN);
  const end = existing.indexOf(END);
  writeFileSync(
    "BENCHMARKS.md",
    begin >= 0 && end > begin
      ? existing.slice(0, begin) + section + existing.slice(end + END.length)
      : `${existing.trimEnd()}\n\n${section}\n`,
  );
  console.error("bench:trajectories: wrote BENCHMARKS.md");
}
