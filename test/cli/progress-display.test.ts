// Progress lines: counts, elapsed time and an estimate; when stderr is not a terminal, plain lines, throttled.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable, Writable } from "node:stream";
import { withIo } from "../../src/commands/io.ts";
import { commandProgress, progressDisplay, tickLine } from "../../src/commands/progress-display.ts";
import { formatDuration } from "../../src/common/progress.ts";
import type { ProgressTick } from "../../src/common/progress.ts";
import { downloadProgressReporter } from "../../src/search/download-progress.ts";

test("durations read as a person says them", () => {
  assert.deepEqual([0, 12.4, 65, 3725].map(formatDuration), ["0s", "12s", "1m 05s", "1h 02m"]);
});

test("a tick's line has done/total, elapsed, an estimate from the pace so far, and the item in hand", () => {
  const tick = { task: "runs of qwen2.5-1.5b", done: 12, total: 120, unit: "runs", detail: "agent-forced q12" };
  assert.equal(tickLine(tick, 65), "runs of qwen2.5-1.5b: 12/120 runs, 1m 05s elapsed, ETA 9m 45s (agent-forced q12)");
  assert.equal(tickLine({ ...tick, done: 0 }, 3), "runs of qwen2.5-1.5b: 0/120 runs, 3s elapsed (agent-forced q12)");
  assert.equal(
    tickLine({ ...tick, done: 120, detail: undefined }, 650),
    "runs of qwen2.5-1.5b: 120/120 runs, 10m 50s elapsed",
  );
});

test("not on a terminal: the first and last tick of a task, and at most one line per interval between", () => {
  const written: string[] = [];
  const stream = { isTTY: false, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
  const display = progressDisplay(stream, 60_000);
  display.message("loading");
  for (let done = 1; done <= 5; done++)
    display.tick({ task: "embedding the sections", done, total: 5, unit: "sections" });
  display.stop();
  assert.equal(written.length, 3);
  assert.equal(written[0], "loading\n");
  assert.match(written[1]!, /^embedding the sections: 1\/5 sections, 0s elapsed, ETA 0s\n$/);
  assert.match(written[2]!, /^embedding the sections: 5\/5 sections, 0s elapsed\n$/);
  assert.ok(
    written.every((line) => !line.includes("\u001b")),
    "no escape codes outside a terminal",
  );
});

test("an embedding model's download counts megabytes over all its files, when ticks are wanted", () => {
  const ticks: ProgressTick[] = [];
  const report = downloadProgressReporter(undefined, (t) => ticks.push(t));
  assert.ok(report);
  const files = {};
  report({
    status: "progress",
    name: "Xenova/all-MiniLM-L6-v2",
    file: "onnx/model.onnx",
    progress: 50,
    loaded: 45e6,
    total: 90e6,
  });
  report({
    status: "progress_total",
    name: "Xenova/all-MiniLM-L6-v2",
    progress: 50,
    loaded: 45.5e6,
    total: 91e6,
    files,
  });
  assert.deepEqual(ticks, [{ task: "downloading Xenova/all-MiniLM-L6-v2", done: 45, total: 91, unit: "MB" }]);
});

test("on a terminal: one bar per task redrawn in place, messages above it, none lost, the cursor given back", async () => {
  let out = "";
  const stream = Object.assign(
    new Writable({
      write: (chunk, _enc, done) => {
        out += String(chunk);
        done();
      },
    }),
    { isTTY: true, columns: 120 },
  );
  const display = progressDisplay(stream as unknown as NodeJS.WriteStream);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 120));
  for (let done = 1; done <= 3; done++) {
    display.tick({ task: "runs of tiny", done, total: 3, unit: "runs", detail: `workflow q0${done}` });
    display.message(`line ${done}`);
    await pause();
  }
  display.message("between tasks");
  display.tick({ task: "embedding the sections", done: 1, total: 2, unit: "sections" });
  await pause();
  display.stop();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the display's escape codes are what this test reads
  const plain = out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
  for (const text of [
    "line 1",
    "line 2",
    "line 3",
    "between tasks",
    "runs of tiny: 3/3 runs",
    "(workflow q03)",
    "embedding the sections: 1/2 sections",
  ]) {
    assert.ok(plain.includes(text), `${text} missing from:\n${plain}`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the display's escape codes are what this test reads
  const shownAtEnd = /\u001b\[\?25h[^\u001b]*(\u001b\[[0-9;?]*[A-Za-z])*\s*$/;
  assert.ok(out.includes("\u001b[?25l") && shownAtEnd.test(out), "the cursor is hidden while drawing and shown again");
  // Redrawn in place: the first task's counts show up once per redraw on the same line, not as new lines.
  assert.ok(!plain.split("\n").some((l) => l.includes("1/3 runs") && l.includes("2/3 runs")));
});

test("each command line run in process has its own display: its own stderr, and none of another run's tasks", () => {
  const display = commandProgress();
  const run = () => {
    const lines: string[] = [];
    const streams = { out: () => {}, err: (text: string) => void lines.push(text), stdin: Readable.from([]), env: {} };
    withIo(streams, () => {
      display.message("loading");
      display.tick({ task: "bm25 index", done: 1, total: 3, unit: "sections" });
      display.tick({ task: "bm25 index", done: 2, total: 3, unit: "sections" });
    });
    return lines.map((l) => l.replace(/, \d+s elapsed.*/, ""));
  };
  // The second run, within the interval, would lose its first line to the first run's if the two shared one.
  const expected = ["loading\n", "bm25 index: 1/3 sections\n"];
  assert.deepEqual(run(), expected);
  assert.deepEqual(run(), expected);
});
