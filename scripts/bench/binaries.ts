// Bench runs in a child process of their own (scripts/bench/child-run.ts): the binary rows (node-llama-cpp's
// prebuilt binary and the local build `npm run build:cpu` makes), since a process loads one llama.cpp binary and
// keeps it, and modes with separate contexts, which need another libuv pool than the bench's (bin/threadpool.cjs).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { threadpoolSizeFor } from "../../bin/threadpool.cjs";
import type { Mode, ModeSample } from "./run-mode.ts";
import type { BenchInputs } from "./slice.ts";

export type Binary = "prebuilt" | "localBuild";

/**
 * The environment that makes node-llama-cpp 3.21.1 load its prebuilt binary although a local build exists: getLlama
 * has no option for it (usePrebuiltBinaries only allows the prebuilt; a local build is always tried first). It looks
 * the local build up in a folder named after the custom CMake options, which it also takes from NODE_LLAMA_CPP_CMAKE_OPTION_*
 * variables; with one set there is no such folder, and as the prebuilt need not match the custom options by default
 * (existingPrebuiltBinaryMustMatchBuildOptions), the prebuilt loads. blogqa's build: "never" compiles nothing.
 */
export const PREBUILT_ENV: Readonly<Record<string, string>> = { NODE_LLAMA_CPP_CMAKE_OPTION_BLOGQA_PREBUILT: "1" };

/** The CPU build `npm run build:cpu` leaves in node-llama-cpp's folder (its addon), or undefined when there is none. */
export function localCpuBuild(root = path.resolve(import.meta.dirname, "../..")): string | undefined {
  const platform = ({ darwin: "mac", win32: "win" } as Record<string, string>)[process.platform] ?? process.platform;
  const folder = path.join(root, "node_modules/node-llama-cpp/llama/localBuilds", `${platform}-${process.arch}`);
  const addon = path.join(folder, "Release", "llama-addon.node");
  return existsSync(addon) && existsSync(path.join(folder, "buildDone.status")) ? addon : undefined;
}

/**
 * What a child measures: `mode` on the first `questions` questions, with the libuv pool `npm run` would give that
 * mode; with `binary`, on the CPU with that binary (the child checks it loaded it), else as the bench loads models.
 */
export interface ChildJob {
  readonly mode: Mode;
  readonly binary?: Binary;
  readonly gpu: boolean;
  readonly inputs: BenchInputs;
  readonly questions: number;
  readonly maxNewTokens: number;
  readonly modelPath: string;
  readonly threads: number;
  readonly contextSize: number;
  /** The file the child writes its sample to. */
  readonly out: string;
}

/** Runs one job in a child process and returns its sample; the child's stderr is the bench's. */
export async function runInChild(job: Omit<ChildJob, "out">): Promise<ModeSample> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-bench-binary-"));
  try {
    const out = path.join(dir, "sample.json");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "child-run.ts"), JSON.stringify({ ...job, out })],
      {
        stdio: ["ignore", "ignore", "inherit"],
        env: {
          ...process.env,
          UV_THREADPOOL_SIZE: String(threadpoolSizeFor(job.mode)),
          ...(job.binary === "prebuilt" ? PREBUILT_ENV : {}),
        },
      },
    );
    const status = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", resolve);
    });
    if (status !== 0)
      throw new Error(`bench: the child process of ${job.binary ?? job.mode.name} exited with status ${status}`);
    return sampleFromJson(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A sample as JSON (its answers map as pairs). */
export function sampleToJson(sample: ModeSample): string {
  return JSON.stringify({ ...sample, answers: [...sample.answers] });
}

function sampleFromJson(text: string): ModeSample {
  const value = JSON.parse(text) as Omit<ModeSample, "answers"> & { answers: [string, string][] };
  return { ...value, answers: new Map(value.answers) };
}
