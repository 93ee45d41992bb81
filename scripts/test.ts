// Runs one tier of the tests with node's own runner: `unit` (every *.test.ts but the integration ones) or
// `integration`. Node 20's --test takes no globs, so the files are found here rather than by the shell's find.
// Each tier runs in two long-lived processes (scripts/test-shard.ts imports each one's files), balanced by the
// durations in test/TIER-durations.json: a process per file spent most of the unit tier starting, and loaded the
// whole program again for each of the integration tier's files. Two, since an integration file mostly waits on one
// single-threaded process (a CLI, a llama-server or a run with --threads 1) and two keep two cores busy; three
// showed no gain. --isolate (or BLOGQA_TEST_ISOLATE=1) runs each file in a process of its own, two at a time, as CI
// does for the unit tier, so a test that leaks global state into the next file still fails somewhere. --record
// writes the durations file from a run.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const SHARDS = 2;

const [tier, ...rest] = process.argv.slice(2);
if (tier !== "unit" && tier !== "integration") {
  console.error("usage: tsx scripts/test.ts unit|integration [--isolate] [--record] [node --test options]");
  process.exit(2);
}
const DURATIONS = `test/${tier}-durations.json`;
const isolate = rest.includes("--isolate") || process.env.BLOGQA_TEST_ISOLATE === "1";
const record = rest.includes("--record");
const nodeOptions = rest.filter((a) => a !== "--isolate" && a !== "--record");
const files = readdirSync("test", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts") && f.endsWith(".integration.test.ts") === (tier === "integration"))
  .map((f) => `test/${f.split(path.sep).join("/")}`)
  .sort();

if (isolate) {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "--test", "--test-concurrency=2", ...nodeOptions, ...files],
    { stdio: "inherit" },
  );
  process.exit(result.status ?? 1);
}

/** Splits `files` into `n` shards of near-equal recorded time: longest first, each onto the lightest shard. */
function balance(names: readonly string[], n: number, seconds: Readonly<Record<string, number>>): string[][] {
  const known = Object.values(seconds).sort((a, b) => a - b);
  const typical = known[Math.floor(known.length / 2)] ?? 1;
  const cost = (f: string) => seconds[f] ?? typical;
  const shards = Array.from({ length: n }, () => ({ files: [] as string[], total: 0 }));
  for (const file of [...names].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))) {
    const lightest = shards.reduce((a, b) => (b.total < a.total ? b : a));
    lightest.files.push(file);
    lightest.total += cost(file);
  }
  return shards.map((s) => s.files.sort());
}

/** Each file's seconds from a TAP report of scripts/test-shard.ts: one top-level suite per file. */
function fileSeconds(tap: string): Record<string, number> {
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
  recorded = JSON.parse(readFileSync(DURATIONS, "utf8")) as Record<string, number>;
} catch {
  // no record yet: every file counts alike
}
const scratch = mkdtempSync(path.join(tmpdir(), "blogqa-unit-"));
const runs = balance(files, SHARDS, recorded).map(
  (shard, i) =>
    new Promise<{ status: number; output: string; tap: string }>((resolve) => {
      const tapFile = path.join(scratch, `shard-${i}.tap`);
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "--test",
          "--test-reporter=spec",
          "--test-reporter-destination=stdout",
          "--test-reporter=tap",
          `--test-reporter-destination=${tapFile}`,
          ...nodeOptions,
          "scripts/test-shard.ts",
        ],
        { env: { ...process.env, BLOGQA_TEST_FILES: shard.join("\n") }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr.on("data", (d: Buffer) => (output += d.toString()));
      child.on("close", (code) => {
        let tap = "";
        try {
          tap = readFileSync(tapFile, "utf8");
        } catch {
          // the shard died before its reporter wrote: its output says why
        }
        resolve({ status: code ?? 1, output, tap });
      });
    }),
);
const results = await Promise.all(runs);
rmSync(scratch, { recursive: true, force: true });
const total: Record<string, number> = {};
for (const [i, r] of results.entries()) {
  process.stdout.write(`\n# shard ${i + 1} of ${SHARDS}\n${r.output}`);
  for (const [k, v] of Object.entries(counts(r.tap))) total[k] = (total[k] ?? 0) + v;
}
console.log(
  `\n# ${files.length} files in ${SHARDS} processes: ${Object.entries(total)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}`,
);
if (record) {
  const seconds = Object.assign({}, ...results.map((r) => fileSeconds(r.tap))) as Record<string, number>;
  const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`# wrote ${DURATIONS}`);
}
process.exit(results.every((r) => r.status === 0) ? 0 : 1);
