// Says why llama.cpp runs without a GPU the machine has: an NVIDIA GPU whose CUDA runtime is missing, a Mac without Metal.
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * The CUDA runtime libraries node-llama-cpp 3.21.1's Linux CUDA build links (`@node-llama-cpp/linux-x64-cuda`), and
 * those of its fallback build (`-ext`, CUDA 12). Neither package ships them: they come with NVIDIA's CUDA runtime.
 */
export const CUDA_RUNTIMES = {
  13: ["libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13"],
  12: ["libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12"],
} as const;

/** What the machine says about its GPUs and CUDA libraries (probed, or given by a test). */
export interface GpuProbe {
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  /** The first GPU's name as `nvidia-smi` answers it; undefined when nvidia-smi is missing or fails. */
  readonly nvidiaGpu: string | undefined;
  /** The CUDA runtime libraries found where node-llama-cpp looks for them (names from CUDA_RUNTIMES). */
  readonly cudaLibraries: readonly string[];
}

/** The folders node-llama-cpp searches for the CUDA runtime on Linux (bindings/utils/detectAvailableComputeLayers.js). */
function cudaLibraryFolders(env: NodeJS.ProcessEnv): string[] {
  const toolkits = ["/usr/local", "/opt"].flatMap((root) => {
    try {
      return readdirSync(root)
        .filter((name) => /^cuda(-[\d.]+)?$/.test(name))
        .flatMap((name) => [path.join(root, name, "lib64"), path.join(root, name, "targets/x86_64-linux/lib")]);
    } catch {
      return [];
    }
  });
  return [
    ...(env.LD_LIBRARY_PATH ?? "").split(":"),
    ...(env.CUDA_PATH ? [env.CUDA_PATH, path.join(env.CUDA_PATH, "lib64")] : []),
    "/usr/lib",
    "/usr/lib64",
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    ...toolkits,
  ].filter((dir) => dir !== "");
}

/** The first GPU's name from `nvidia-smi` on PATH, or undefined when it is missing, fails or says nothing. */
function nvidiaSmiName(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      "nvidia-smi",
      ["--query-gpu=name", "--format=csv,noheader"],
      { timeout: 5000, encoding: "utf8" },
      (error, stdout) => {
        const name = error ? "" : (stdout.split("\n")[0]?.trim() ?? "");
        resolve(name === "" ? undefined : name.slice(0, 100));
      },
    );
  });
}

/** Probes this machine: nvidia-smi on PATH and the CUDA runtime libraries (Linux only; elsewhere none are looked for). */
export async function probeGpu(env: NodeJS.ProcessEnv = process.env): Promise<GpuProbe> {
  const wanted = [...CUDA_RUNTIMES[13], ...CUDA_RUNTIMES[12]];
  const linux = process.platform === "linux";
  const folders = linux ? cudaLibraryFolders(env) : [];
  return {
    platform: process.platform,
    arch: process.arch,
    nvidiaGpu: process.platform === "darwin" ? undefined : await nvidiaSmiName(),
    cudaLibraries: wanted.filter((lib) => folders.some((dir) => existsSync(path.join(dir, lib)))),
  };
}

/**
 * The one line that says why a GPU the machine has is not used, and what to do; undefined when it is used or there
 * is none to use. `backend`: what llama.cpp runs on ("cuda", "vulkan", "metal", "cpu").
 */
export function gpuNote(backend: string, probe: GpuProbe): string | undefined {
  if (probe.platform === "darwin") {
    if (probe.arch !== "arm64" || backend === "metal") return undefined;
    return (
      `note: this Mac has Apple silicon, but llama.cpp runs on ${backend}, not Metal: check that --no-gpu is not ` +
      "given and that node-llama-cpp's @node-llama-cpp/mac-arm64-metal package is installed (`npm ci` installs it); " +
      "on the CPU the study takes hours (docs/models.md)"
    );
  }
  if (probe.nvidiaGpu === undefined || backend === "cuda") return undefined;
  const has = (libs: readonly string[]) => libs.every((lib) => probe.cudaLibraries.includes(lib));
  const missing = (libs: readonly string[]) => libs.filter((lib) => !probe.cudaLibraries.includes(lib));
  const runtime = has(CUDA_RUNTIMES[13])
    ? "the CUDA 13 runtime was found, yet node-llama-cpp did not load its CUDA build (its log says why)"
    : has(CUDA_RUNTIMES[12])
      ? "the CUDA 12 runtime was found, yet node-llama-cpp did not load its CUDA build (its log says why)"
      : `node-llama-cpp's CUDA build needs the CUDA 13 runtime (${missing(CUDA_RUNTIMES[13]).join(", ")} not found; ` +
        "CUDA 12's libcudart.so.12 and libcublas.so.12 do for its fallback build), which it does not ship: " +
        "install NVIDIA's CUDA runtime libraries (Debian/Ubuntu: cuda-cudart-13-0 and libcublas-13-0 from NVIDIA's " +
        "repository) and put their folder on LD_LIBRARY_PATH, or build llama.cpp for the local CUDA toolkit with " +
        "`npx --no node-llama-cpp source download --gpu cuda`";
  return `note: an NVIDIA GPU answers nvidia-smi (${probe.nvidiaGpu}), but llama.cpp runs on ${backend}: ${runtime}`;
}

/** gpuNote for this machine, probed once per process (a run loads several models). */
export async function gpuNotUsedNote(backend: string): Promise<string | undefined> {
  probed ??= probeGpu();
  return gpuNote(backend, await probed);
}

let probed: Promise<GpuProbe> | undefined;
