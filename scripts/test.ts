// Runs one tier of the tests with node's own runner: `unit` (every *.test.ts but the integration ones) or
// `integration`. Node 20's --test takes no globs, so the files are found here rather than by the shell's find.
// The unit tier runs in two long-lived processes (scripts/test-shard.ts imports each one's files), balanced by the
// durations in test/unit-durations.json, since starting a process per file cost most of the tier; --isolate (or
// BLOGQA_TEST_ISOLATE=1) runs each file in a process of its own, as CI does too, so a test that leaks global state
// into the next file still fails somewhere. The integration tier runs each file in a process of its own, two at a
// time, the longest by test/integration-durations.json first, so that the tier does not end on one long file while
// the other core idles; each file's report is printed whole when it ends. --record writes the tier's durations file
// from a run.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// Two processes at a time in either tier: an integration file mostly runs one single-threaded process (a CLI, a
// llama-server or a run with --threads 1), so one at a time left a core of two idle; three showed no gain over two.
const PROCESSES = 2;

const [tier, ...rest] = process.argv.slice(2);
if (tier !== "unit" && tier !== "integration") {
  console.error(
    "usage: tsx scripts/test.ts unit [--isolate] [--record] | integration [--record]  [node --test options]",
  );
  process.exit(2);
}
const isolate = rest.includes("--isolate") || process.env.BLOGQA_TEST_ISOLATE === "1";
const record = rest.includes("--record");
const nodeOptions = rest.filter((a) => a !== "--isolate" && a !== "--record");
const durationsFile = `test/${tier}-durations.json`;
const files = readdirSync("test", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts") && f.endsWith(".integration.test.ts") === (tier === "integration"))
  .map((f) => `test/${f.split(path.sep).join("/")}`)
  .sort();

if (tier === "unit" && isolate) {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "--test", `--test-concurrency=${PROCESSES}`, ...nodeOptions, ...files],
    { stdio: "inherit" },
  );
  process.exit(result.status ?? 1);
}

interface NodeTestRun {
  readonly status: number;
  /** The spec reporter's output and the process's stderr, as they came. */
  readonly output: string;
  /** The TAP report, for the counts and durations. */
  readonly tap: string;
  readonly seconds: number;
}

/** Runs `node --test` on `targets` with a spec report collected and a TAP report written to `tapFile`. */
function runNodeTest(targets: readonly string[], tapFile: string, env: NodeJS.ProcessEnv): Promise<NodeTestRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        ...["--import", "tsx", "--test"],
        ...["--test-reporter=spec", "--test-reporter-destination=stdout"],
        ...["--test-reporter=tap", `--test-reporter-destination=${tapFile}`],
        ...nodeOptions,
        ...targets,
      ],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code) => {
      let tap = "";
      try {
        tap = readFileSync(tapFile, "utf8");
      } catch {
        // the process died before its reporter wrote: its output says why
      }
      resolve({ status: code ?? 1, output, tap, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** A file's recorded seconds, or the median of those recorded for a file the record lacks. */
function costs(seconds: Readonly<Record<string, number>>): (file: string) => number {
  const known = Object.values(seconds).sort((a, b) => a - b);
  const typical = known[Math.floor(known.length / 2)] ?? 1;
  return (file) => seconds[file] ?? typical;
}

/** The longest first; ties in name order. */
function longestFirst(names: readonly string[], cost: (file: string) => number): string[] {
  return [...names].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
}

/** Splits `files` into `n` shards of near-equal recorded time: longest first, each onto the lightest shard. */
function balance(names: readonly string[], n: number, cost: (file: string) => number): string[][] {
  const shards = Array.from({ length: n }, () => ({ files: [] as string[], total: 0 }));
  for (const file of longestFirst(names, cost)) {
    const lightest = shards.reduce((a, b) => (b.total < a.total ? b : a));
    lightest.files.push(file);
    lightest.total += cost(file);
  }
  return shards.map((s) => s.files.sort());
}

/** Each file's seconds from a TAP report of scripts/test-shard.ts: one top-level suite per file. */
function shardFileSeconds(tap: string): Record<string, number> {
  const out: Record<string, number> = {};
  let file: string | undefined;
  for (const line of tap.split("\n")) {
    const top = /^(?:not )?ok \d+ - (test\/\S+\.test\.ts)$/.exec(line);
    if (top) file = top[1];
    const duration = /^ {2}duration_ms: ([\d.]+)$/.exec(line);
    if (duration && file !== undefined) {
      out[file] = Math.round(Number(duration[1])) / 1000;
      file = undefined;
    }
  }
  return out;
}

/** The summary counts a TAP report ends with: `# tests 12` -> { tests: 12 }. */
function counts(tap: string): Record<string, number> {
  return Object.fromEntries(
    [...tap.matchAll(/^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]),
  );
}

let recorded: Record<string, number> = {};
try {
  recorded = JSON.parse(readFileSync(durationsFile, "utf8")) as Record<string, number>;
} catch {
  // no record yet: every file counts alike
}
const cost = costs(recorded);
const scratch = mkdtempSync(path.join(tmpdir(), `blogqa-${tier}-`));
const total: Record<string, number> = {};
const seconds: Record<string, number> = {};
let failed = false;
const tally = (run: NodeTestRun) => {
  for (const [k, v] of Object.entries(counts(run.tap))) total[k] = (total[k] ?? 0) + v;
  failed ||= run.status !== 0;
};

if (tier === "unit") {
  const shards = balance(files, PROCESSES, cost);
  const runs = await Promise.all(
    shards.map((shard, i) =>
      runNodeTest(["scripts/test-shard.ts"], path.join(scratch, `shard-${i}.tap`), {
        ...process.env,
        BLOGQA_TEST_FILES: shard.join("\n"),
      }),
    ),
  );
  for (const [i, run] of runs.entries()) {
    process.stdout.write(`\n# shard ${i + 1} of ${PROCESSES}\n${run.output}`);
    tally(run);
    Object.assign(seconds, shardFileSeconds(run.tap));
  }
} else {
  const queue = longestFirst(files, cost);
  const lane = async (laneIndex: number) => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const run = await runNodeTest([file], path.join(scratch, `${laneIndex}.tap`), process.env);
      process.stdout.write(`\n# ${file} (${run.seconds.toFixed(1)} s)\n${run.output}`);
      tally(run);
      seconds[file] = Math.round(run.seconds * 10) / 10;
    }
  };
  await Promise.all(Array.from({ length: PROCESSES }, (_, i) => lane(i)));
}
rmSync(scratch, { recursive: true, force: true });

console.log(
  `\n# ${files.length} files, ${PROCESSES} processes at a time: ${Object.entries(total)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}`,
);
if (record) {
  const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(durationsFile, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`# wrote ${durationsFile}`);
}
process.exit(failed ? 1 : 0);
