// The line that says why a GPU the machine has is not used, from what the machine answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CUDA_RUNTIMES, gpuNote, type GpuProbe } from "../../src/llm/gpu-note.ts";

const linux: GpuProbe = {
  platform: "linux",
  arch: "x64",
  nvidiaGpu: "NVIDIA GeForce RTX 4060 Laptop GPU",
  cudaLibraries: [],
};

test("an NVIDIA GPU without the CUDA runtime: the line names the libraries and what to install or build", () => {
  const line = gpuNote("cpu", linux) ?? "";
  assert.match(
    line,
    /^note: an NVIDIA GPU answers nvidia-smi \(NVIDIA GeForce RTX 4060 Laptop GPU\), but llama\.cpp runs on cpu: /,
  );
  assert.match(line, /the CUDA 13 runtime \(libcudart\.so\.13, libcublas\.so\.13, libcublasLt\.so\.13 not found/);
  assert.match(line, /libcudart\.so\.12 and libcublas\.so\.12 do for its fallback build/);
  assert.match(line, /npx --no node-llama-cpp source download --gpu cuda/);
  assert.match(gpuNote("vulkan", linux) ?? "", /but llama\.cpp runs on vulkan: /);
  assert.match(
    gpuNote("cpu", { ...linux, cudaLibraries: [...CUDA_RUNTIMES[13]].slice(0, 1) }) ?? "",
    /\(libcublas\.so\.13, libcublasLt\.so\.13 not found/,
    "only what is missing",
  );
  assert.match(
    gpuNote("cpu", { ...linux, cudaLibraries: [...CUDA_RUNTIMES[12]] }) ?? "",
    /the CUDA 12 runtime was found/,
  );
});

test("no line when CUDA runs, when nvidia-smi does not answer, or on a Mac using Metal", () => {
  assert.equal(gpuNote("cuda", linux), undefined);
  assert.equal(gpuNote("cpu", { ...linux, nvidiaGpu: undefined }), undefined);
  const mac: GpuProbe = { platform: "darwin", arch: "arm64", nvidiaGpu: undefined, cudaLibraries: [] };
  assert.equal(gpuNote("metal", mac), undefined);
  assert.match(gpuNote("cpu", mac) ?? "", /^note: this Mac has Apple silicon, but llama\.cpp runs on cpu, not Metal/);
  assert.equal(gpuNote("cpu", { ...mac, arch: "x64" }), undefined, "an Intel Mac has no Metal build to miss");
});
