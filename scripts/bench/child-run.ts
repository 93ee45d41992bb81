// One run of the bench slice in a process of its own: scripts/bench/binaries.ts picks the binary and the libuv pool
// by the environment and passes the job as the one argument; this warms up, runs the job's mode once and writes the
// sample to the job's file. It stops with an error if node-llama-cpp loaded another binary than the job names.
import { writeFileSync } from "node:fs";
import { loadModel } from "../../src/llm/index.ts";
import type { ChildJob } from "./binaries.ts";
import { sampleToJson } from "./binaries.ts";
import { runMode } from "./run-mode.ts";
import { openBenchInputs, studySlice, warmUp } from "./slice.ts";

const job = JSON.parse(process.argv[2]!) as ChildJob;
const { questions, index } = await openBenchInputs(job.inputs);
const load = () =>
  loadModel(job.modelPath, {
    cacheDir: job.inputs.cacheDir,
    gpu: job.gpu,
    threads: job.threads,
    contextSize: job.contextSize,
  });
await warmUp(load);
const sample = await runMode({
  mode: job.mode,
  slice: studySlice(questions, job.questions, job.maxNewTokens),
  index,
  load,
});
const loaded = sample.info.binary?.buildType;
if (job.binary !== undefined && loaded !== job.binary) {
  console.error(`bench: asked for node-llama-cpp's ${job.binary} binary, and it loaded ${loaded ?? "none"}`);
  process.exit(1);
}
writeFileSync(job.out, sampleToJson(sample));
