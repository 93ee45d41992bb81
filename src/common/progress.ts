// Progress of long work (runs, embedding the sections, downloads) as counts, for the command line to display.

/** One step of a long task: `done` of `total` units, and the item now in hand. */
export interface ProgressTick {
  /** What is counted, the same for every tick of one task: "qwen2.5-1.5b runs", "embedding sections". */
  readonly task: string;
  readonly done: number;
  readonly total: number;
  /** "runs", "sections", "MB". */
  readonly unit: string;
  /** The model and design at work, a file name: shown after the counts. */
  readonly detail?: string;
}

export type OnTick = (tick: ProgressTick) => void;

/** "1h 02m", "4m 05s", "12s": how progress lines and estimates say a duration. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  return `${s}s`;
}
