// The one door to node-llama-cpp: imported lazily, once, so commands that never run a model never load it.
import type * as NodeLlamaCpp from "node-llama-cpp";

/**
 * UV_THREADPOOL_SIZE as this process started with it. subtle: libuv reads it once, when its thread pool starts,
 * and under tsx (and node's ESM loader) the pool has started before any of our code runs: setting
 * `process.env.UV_THREADPOOL_SIZE = "1"` here was measured to change nothing (5 of 32 parallel outputs still
 * diverged). So the CommonJS entry sets it before any ES module loads (bin/threadpool.cjs), and this reads it.
 */
export const inheritedThreadpoolSize: string | undefined = process.env.UV_THREADPOOL_SIZE;

/** True when the process started with a one-thread libuv pool, which serializes node-llama-cpp's native jobs. */
export function startedWithPoolOfOne(): boolean {
  return inheritedThreadpoolSize === "1";
}

let loaded: Promise<typeof NodeLlamaCpp> | undefined;

export function importNodeLlamaCpp(): Promise<typeof NodeLlamaCpp> {
  loaded ??= import("node-llama-cpp");
  return loaded;
}
