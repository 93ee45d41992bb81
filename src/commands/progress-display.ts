// Shows progress ticks on stderr: one updating bar on a terminal (cli-progress), plain lines otherwise (logs, CI).
import cliProgress from "cli-progress";
import { formatDuration, type ProgressTick } from "../common/index.ts";

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

/** Plain lines at most every `everyMs` per task (and always the first and last), or one bar on a TTY. */
export function progressDisplay(stream: NodeJS.WriteStream = process.stderr, everyMs = 2000): ProgressDisplay {
  const started = new Map<string, number>();
  const lastLine = new Map<string, number>();
  const elapsed = (task: string, now: number) => (now - (started.get(task) ?? now)) / 1000;
  const begin = (task: string, now: number) => {
    if (!started.has(task)) started.set(task, now);
  };

  if (!stream.isTTY) {
    return {
      message: (line) => void stream.write(`${line}\n`),
      tick: (t) => {
        const now = Date.now();
        begin(t.task, now);
        const first = !lastLine.has(t.task);
        if (!first && t.done < t.total && now - lastLine.get(t.task)! < everyMs) return;
        lastLine.set(t.task, now);
        stream.write(`${tickLine(t, elapsed(t.task, now))}\n`);
      },
      stop: () => {},
    };
  }

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
