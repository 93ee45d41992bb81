// A run's clock: the whole run's estimate from the first model's warm-up, and the pace and time left as runs finish.
import { statSync } from "node:fs";
import path from "node:path";
import { hfLocalFileNames, isLocalModelId, knownFileBytes, type LoadedModel } from "../llm/index.ts";
import type { DesignId } from "../designs/index.ts";
import { formatDuration } from "../common/index.ts";
import type { AnswerRecord } from "./answer-types.ts";
import { cpuHoursNote, estimateSeconds, LOAD_SOURCE, warmUpLine } from "./run-estimate.ts";

/** A model's pending work, as the runner plans it: each prompt's design and the samples still to run. */
type PendingOf = (model: string) => readonly { readonly design: DesignId; readonly samples: readonly number[] }[];

export interface RunTimer {
  /** Measures the loaded model's speed (where it can) and says the estimate: the whole run's at the first model. */
  warmUp(model: string, loaded: LoadedModel): Promise<void>;
  /** A run of `model` was logged as the `done`th of `total`: the pace and time left, as the progress line's tail. */
  ran(model: string, record: AnswerRecord, done: number, total: number): string;
}

const runsByDesign = (pending: ReturnType<PendingOf>) =>
  pending.map((task) => ({ design: task.design, runs: task.samples.length }));

export function runTimer(
  options: { readonly models: readonly string[]; readonly modelBytes?: (model: string) => number | undefined },
  maxNewTokens: number,
  pendingOf: PendingOf,
  progress: (line: string) => void,
): RunTimer {
  /** The estimate of each model not yet started, in seconds, once a warm-up measured one. */
  const ahead = new Map<string, number>();
  let measuredOnce = false;
  const pace = new Map<string, { readonly started: number; tokens: number }>();
  return {
    async warmUp(model, loaded) {
      if (loaded.measureSpeed === undefined) return;
      const speed = await loaded.measureSpeed();
      const name = path.basename(model);
      progress(warmUpLine(name, speed));
      const pending = pendingOf(model);
      const runs = pending.reduce((n, t) => n + t.samples.length, 0);
      const own = estimateSeconds(runsByDesign(pending), speed, maxNewTokens);
      ahead.delete(model);
      if (measuredOnce) {
        progress(`estimate: the ${runs} runs of ${name} at most ${formatDuration(own)} (${LOAD_SOURCE})`);
        return;
      }
      measuredOnce = true;
      const bytes = loaded.info.files.reduce((n, f) => n + f.bytes, 0);
      const later = options.models.slice(options.models.indexOf(model) + 1);
      let whole = own;
      let wholeRuns = runs;
      for (const other of later) {
        const otherPending = pendingOf(other);
        // Decoding reads every weight once a token, so a model takes about as long as its file is large.
        const scale = (options.modelBytes?.(other) ?? bytes) / Math.max(1, bytes);
        const seconds = estimateSeconds(runsByDesign(otherPending), speed, maxNewTokens, scale);
        ahead.set(other, seconds);
        whole += seconds;
        wholeRuns += otherPending.reduce((n, t) => n + t.samples.length, 0);
      }
      const scaled = later.length > 0 ? "; the models after it scaled by the size of their files" : "";
      progress(
        `estimate: the ${runs} runs of ${name} at most ${formatDuration(own)}` +
          (later.length > 0
            ? `, the whole run (${later.length + 1} models, ${wholeRuns} runs) at most ${formatDuration(whole)}`
            : "") +
          ` (${LOAD_SOURCE}${scaled})`,
      );
      const cpu = cpuHoursNote(loaded.info.backend, whole);
      if (cpu !== undefined) progress(cpu);
    },
    ran(model, record, done, total) {
      const now = performance.now();
      const own = pace.get(model) ?? { started: now - record.seconds * 1000, tokens: 0 };
      pace.set(model, own);
      own.tokens += record.tokens_read + record.tokens_generated;
      const elapsed = Math.max(1e-3, (now - own.started) / 1000);
      const leftHere = (elapsed / done) * (total - done);
      const later = options.models.slice(options.models.indexOf(model) + 1);
      const leftLater = later.reduce((n, m) => n + (ahead.get(m) ?? 0), 0);
      const rate = Math.round(own.tokens / elapsed).toLocaleString("en-US");
      const left =
        leftLater > 0 ? `, about ${formatDuration(leftHere + leftLater)} left in all (later models estimated)` : "";
      return `; ${rate} tokens/s read and written${left}`;
    },
  };
}

/**
 * A model's weights in bytes before it loads: a local file's size, or the hub's size of a default model's files;
 * undefined otherwise (a server's model, an unknown hub file), and the estimate then counts it as the measured one.
 */
export function modelBytesBeforeLoading(id: string): number | undefined {
  if (isLocalModelId(id)) {
    try {
      return statSync(id).size;
    } catch {
      return undefined;
    }
  }
  const files = hfLocalFileNames(id)?.hubFiles.map(knownFileBytes);
  return files?.every((b) => b !== undefined) ? files.reduce((a: number, b) => a + (b ?? 0), 0) : undefined;
}
