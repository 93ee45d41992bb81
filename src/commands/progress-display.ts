// Shows progress ticks on stderr: one updating bar on a terminal (cli-progress), plain lines otherwise (logs, CI).
import cliProgress from "cli-progress";
import { formatDuration, type ProgressTick } from "../common/index.ts";
import { type CommandIo, io, processIo } from "./io.ts";

/**
 * The counts, elapsed time and estimate of one tick, as the plain line and the bar both show them. The estimate
 * assumes the remaining units take as long as the done ones did; none before the first is done. Example:
 * "qwen2.5-1.5b runs: 12/120 runs, 1m 05s elapsed, ETA 9m 45s (agent-forced q12)".
 */
export function tickLine(tick: ProgressTick, elapsedSeconds: number): string {
  const eta =
    tick.done > 0 && tick.done < tick.total
      ? `, ETA ${formatDuration((elapsedSeconds / tick.done) * (tick.total - tick.done))}`
      : "";
  const detail = tick.detail ? ` (${tick.detail})` : "";
  return `${tick.task}: ${tick.done}/${tick.total} ${tick.unit}, ${formatDuration(elapsedSeconds)} elapsed${eta}${detail}`;
}

export interface ProgressDisplay {
  /** A message line; on a terminal it prints above the bar. */
  message(line: string): void;
  tick(tick: ProgressTick): void;
  /** Ends the bar (a terminal keeps its last state). */
  stop(): void;
}

/** Each command line's display: a run in process starts with none of another run's tasks, and writes to its stderr. */
const displays = new WeakMap<CommandIo, ProgressDisplay>();

/**
 * The display of the command line being run (src/commands/io.ts), made at its first use: the process's stderr (a
 * bar on a terminal) for the entry, plain lines on the given stderr for a command line run in process.
 */
export function commandProgress(): ProgressDisplay {
  const current = (): ProgressDisplay => {
    const streams = io();
    let display = displays.get(streams);
    if (display === undefined) {
      display = streams === processIo ? progressDisplay() : plainProgress(streams.err);
      displays.set(streams, display);
    }
    return display;
  };
  return {
    message: (line) => current().message(line),
    tick: (t) => current().tick(t),
    stop: () => current().stop(),
  };
}

/** Plain lines on `write`, at most every `everyMs` per task (and always the first and last). */
function plainProgress(write: (text: string) => void, everyMs = 2000): ProgressDisplay {
  const started = new Map<string, number>();
  const lastLine = new Map<string, number>();
  return {
    message: (line) => write(`${line}\n`),
    tick: (t) => {
      const now = Date.now();
      if (!started.has(t.task)) started.set(t.task, now);
      const first = !lastLine.has(t.task);
      if (!first && t.done < t.total && now - lastLine.get(t.task)! < everyMs) return;
      lastLine.set(t.task, now);
      write(`${tickLine(t, (now - started.get(t.task)!) / 1000)}\n`);
    },
    stop: () => {},
  };
}

/** Plain lines at most every `everyMs` per task (and always the first and last), or one bar on a TTY. */
export function progressDisplay(stream: NodeJS.WriteStream = process.stderr, everyMs = 2000): ProgressDisplay {
  if (!stream.isTTY) return plainProgress((text) => void stream.write(text), everyMs);
  const started = new Map<string, number>();
  const elapsed = (task: string, now: number) => (now - (started.get(task) ?? now)) / 1000;
  const begin = (task: string, now: number) => {
    if (!started.has(task)) started.set(task, now);
  };

  // One MultiBar per task: a finished task's bar stays on screen as a line, and the next task's starts below it.
  const options = {
    stream,
    format: "{bar} {line}",
    barsize: 20,
    hideCursor: true,
    clearOnComplete: false,
    stopOnComplete: true,
  };
  let bars: cliProgress.MultiBar | undefined;
  let bar: cliProgress.SingleBar | undefined;
  let barTask: string | undefined;
  return {
    // subtle: log() only buffers until the next redraw, and a stopped bar (its task complete) never redraws again.
    message: (line) => (bars !== undefined && isActive(bars) ? bars.log(`${line}\n`) : void stream.write(`${line}\n`)),
    tick: (t) => {
      const now = Date.now();
      begin(t.task, now);
      const line = tickLine(t, elapsed(t.task, now));
      if (bars === undefined || bar === undefined || barTask !== t.task) {
        if (bars !== undefined && isActive(bars)) bars.stop();
        bars = new cliProgress.MultiBar(options, cliProgress.Presets.shades_classic);
        bar = bars.create(t.total, t.done, { line });
        barTask = t.task;
      } else {
        bar.setTotal(t.total);
        bar.update(t.done, { line });
      }
    },
    stop: () => {
      if (bars !== undefined && isActive(bars)) bars.stop();
    },
  };
}

/** Whether the bars are still being redrawn (cli-progress keeps this on the instance, outside its types). */
function isActive(bars: cliProgress.MultiBar): boolean {
  return (bars as unknown as { isActive?: boolean }).isActive === true;
}
