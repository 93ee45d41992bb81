// Makes a context's sequences sample one at a time, so parallel sequences cannot read each other's logits.
import type { LlamaContext } from "node-llama-cpp";

/**
 * subtle: after a batch is decoded, node-llama-cpp 3.21.1 starts one native sampling job per sequence on
 * libuv's thread pool, and the first `llama_get_logits_ith` call reorders the context's shared logits rows
 * (llama_context::output_reorder) without a lock; two jobs doing it at once leave rows swapped, so a sequence
 * samples another's logits (measured: 22 of 64 tiny-model outputs diverged from one-at-a-time; 0 with this).
 * A pool of one thread (UV_THREADPOOL_SIZE=1 before the process starts) serializes the jobs too; this does it
 * inside one context, whatever the pool size, by chaining the context's sampling calls.
 * It patches an internal field (`_ctx.sampleToken`), so it checks the shape and reports whether it applied; a
 * test counts the calls through `onSample` to notice a node-llama-cpp that stops calling the field at each sample.
 */
export function serializeSampling(context: LlamaContext, onSample?: () => void): boolean {
  const native = (context as unknown as { _ctx?: Record<string, unknown> })._ctx;
  const original = native?.sampleToken;
  if (native === undefined || typeof original !== "function") return false;
  let tail: Promise<unknown> = Promise.resolve();
  const serialized = (...args: unknown[]) => {
    onSample?.();
    const run = tail.then(() => (original as (...a: unknown[]) => unknown).apply(native, args));
    tail = run.catch(() => undefined);
    return run;
  };
  // The native method is a read-only prototype property, so plain assignment fails; an own property shadows it.
  try {
    Object.defineProperty(native, "sampleToken", { value: serialized, configurable: true, writable: true });
  } catch {
    return false;
  }
  return native.sampleToken === serialized;
}
