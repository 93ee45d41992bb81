// Turns transformers.js's download events into a few lines for a person: each file at every 10%, then done.
import type { ProgressInfo } from "@huggingface/transformers";
import type { OnTick } from "../common/index.ts";

/** A progress_callback that reports through `report`; undefined when nobody listens. */
export function downloadProgressReporter(
  report: ((message: string) => void) | undefined,
  onTick?: OnTick,
): ((info: ProgressInfo) => void) | undefined {
  if (onTick) {
    // Counted over all the model's files at once, in megabytes, instead of lines per file.
    return (info) => {
      if (info.status !== "progress_total" || info.total <= 0) return;
      onTick({
        task: `downloading ${info.name}`,
        done: Math.floor(info.loaded / 1e6),
        total: Math.max(1, Math.ceil(info.total / 1e6)),
        unit: "MB",
      });
    };
  }
  if (!report) return undefined;
  const lastStep = new Map<string, number>(); // file -> last 10% step reported
  return (info) => {
    if (info.status === "progress" && info.total > 0) {
      const step = Math.floor(info.progress / 10);
      if (step <= (lastStep.get(info.file) ?? -1)) return;
      lastStep.set(info.file, step);
      report(`  ${info.file}: ${step * 10}% of ${megabytes(info.total)}`);
    } else if (info.status === "done" && lastStep.has(info.file) && lastStep.get(info.file)! < 10) {
      lastStep.set(info.file, 10);
      report(`  ${info.file}: done`);
    }
  };
}

function megabytes(bytes: number): string {
  return bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}
