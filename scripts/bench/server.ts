// The benchmark's llama-server modes: the same slice sent to llama-server (built by scripts/build-llama-server.sh
// from the llama.cpp node-llama-cpp ships) in completions mode, one server started per measured run.
import type { LoadedModel } from "../../src/llm/index.ts";
import { openServerModel } from "../../src/llm/index.ts";
import { startLlamaServer } from "../../test/helpers/llama-server.ts";
import type { Mode } from "./run-mode.ts";

// K slots answer K requests in flight, batched on the server's one context as the shared-context modes are.
export const SERVER_MODES: readonly Mode[] = [1, 4, 8].map((k) => ({
  name: k === 1 ? "llama-server" : `llama-server-x${k}`,
  parallel: k,
  reuseCache: true,
  sharedContext: true,
  backend: "llama-server",
}));

/** llama-server's own counters (its /metrics), which count every call, those it then refused too. */
export interface ServerCounters {
  /** Tokens generated (llamacpp:tokens_predicted_total). */
  readonly generated: number;
  /** Prompt tokens evaluated (llamacpp:prompt_tokens_total: cached ones excluded). */
  readonly promptEvaluated: number;
  /** Prompt tokens reused from a slot's cache (llamacpp:prompt_tokens_cached_total). */
  readonly promptCached: number;
  /** Seconds spent evaluating prompts (llamacpp:prompt_seconds_total). */
  readonly promptSeconds: number;
  /** Seconds spent decoding after each reply's first token (llamacpp:tokens_predicted_seconds_total). */
  readonly decodeSeconds: number;
}

/** The counters from a /metrics page (Prometheus text); a missing counter is an error naming it. */
export function parseMetrics(text: string): ServerCounters {
  const value = (name: string): number => {
    const line = text.split("\n").find((l) => l.startsWith(`llamacpp:${name} `));
    const number = line === undefined ? Number.NaN : Number(line.slice(line.indexOf(" ") + 1));
    if (!Number.isFinite(number)) throw new Error(`llama-server's /metrics has no llamacpp:${name}`);
    return number;
  };
  return {
    generated: value("tokens_predicted_total"),
    promptEvaluated: value("prompt_tokens_total"),
    promptCached: value("prompt_tokens_cached_total"),
    promptSeconds: value("prompt_seconds_total"),
    decodeSeconds: value("tokens_predicted_seconds_total"),
  };
}

/** What a counter moved by between two readings. */
export function countersDelta(before: ServerCounters, after: ServerCounters): ServerCounters {
  return {
    generated: after.generated - before.generated,
    promptEvaluated: after.promptEvaluated - before.promptEvaluated,
    promptCached: after.promptCached - before.promptCached,
    promptSeconds: after.promptSeconds - before.promptSeconds,
    decodeSeconds: after.decodeSeconds - before.decodeSeconds,
  };
}

export interface ServerSession {
  /** Opens the served model as a LoadedModel (runStudy disposes it; the server keeps running). */
  readonly load: () => Promise<LoadedModel>;
  readonly counters: () => Promise<ServerCounters>;
}

/**
 * The bench's context per sequence, in-process and per server slot alike: the size its figures were measured at
 * (the slice's prompts fit), and a fraction of the runtime's default's memory for 8 sequences of a Qwen2.5 shape.
 */
export const BENCH_CONTEXT_SIZE = 4096;

/**
 * Starts llama-server on `modelPath` for `mode` (K slots sharing a context of BENCH_CONTEXT_SIZE tokens a slot, `threads` threads
 * as the in-process runtime uses, metrics on), pages the weights in with one untimed request, runs `measure`, and
 * stops the server whatever happens.
 */
export async function withLlamaServer<T>(
  modelPath: string,
  mode: Mode,
  threads: number,
  cacheDir: string,
  measure: (session: ServerSession) => Promise<T>,
): Promise<T> {
  const k = String(mode.parallel);
  const server = await startLlamaServer(modelPath, {
    extraArgs: [
      "-np",
      k,
      "-c",
      String(BENCH_CONTEXT_SIZE * mode.parallel),
      "-t",
      String(threads),
      "-tb",
      String(threads),
    ].concat(["--metrics", "--alias", "bench"]),
  });
  try {
    const warm = await fetch(`${server.url}/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench", prompt: "warm up", max_tokens: 2, temperature: 0 }),
    });
    if (!warm.ok) throw new Error(`llama-server's warm-up request failed: HTTP ${warm.status}`);
    const load = () =>
      openServerModel({
        url: server.url,
        model: "bench",
        mode: "completions",
        timeoutSeconds: 300,
        retries: 0,
        repetitionPenalty: "none",
        reuseCache: mode.reuseCache,
        cacheDir,
      });
    const counters = async () => {
      const page = await fetch(`${server.rootUrl}/metrics`);
      if (!page.ok) throw new Error(`llama-server's /metrics answered HTTP ${page.status}`);
      return parseMetrics(await page.text());
    };
    return await measure({ load, counters });
  } finally {
    await server.stop();
  }
}
