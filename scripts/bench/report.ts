// The benchmark's markdown: the rows as a table, and BENCHMARKS.md with machine, command, slice, targets.
import type { IndexFigures } from "./index-bench.ts";
import type { BenchRow, BinaryRow, SamplesRow } from "./rows.ts";
import type { ModeProfile, TargetCheck } from "./targets.ts";

export function rowsTable(rows: readonly BenchRow[]): string {
  const head =
    "| mode | parallel | tokens read | tokens evaluated | agent read | agent evaluated | tokens generated | wall s | generated tok/s | speedup | overhead | answers changed | refused runs |\n" +
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
  // NaN: a figure this mode cannot measure (a server's counters are not split by design).
  const n = (x: number) => (Number.isNaN(x) ? "n/a" : String(x));
  const lines = rows.map(
    (r) =>
      `| ${r.mode} | ${r.parallel} | ${r.tokens_read} | ${r.tokens_evaluated} | ${n(r.agent_tokens_read)} | ${n(r.agent_tokens_evaluated)} | ${r.tokens_generated} | ` +
      `${r.seconds.toFixed(1)} | ${r.tokens_per_second.toFixed(2)} | ${r.speedup.toFixed(2)}x | ${(100 * r.overhead).toFixed(1)}% | ${r.answers_changed} | ${r.refused_runs} |`,
  );
  return [head, ...lines].join("\n");
}

const ratio = (x: number, of: number | undefined) =>
  of === undefined || !Number.isFinite(x / of) ? "n/a" : `${(x / of).toFixed(2)}x`;

/** The binaries' table; the ratios are to the row named llama-server, where there is one. */
export function binariesTable(rows: readonly BinaryRow[]): string {
  const server = rows.find((r) => r.binary === "llama-server");
  const head =
    "| binary | tokens evaluated | prompt s | prompt tok/s | prompt vs llama-server | decode steps | decode s | decode tok/s | decode vs llama-server | wall s | answers changed |\n" +
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
  const lines = rows.map(
    (r) =>
      `| ${r.binary} | ${r.tokens_evaluated} | ${r.prompt_seconds.toFixed(2)} | ${r.prompt_tokens_per_second.toFixed(1)} | ` +
      `${ratio(r.prompt_tokens_per_second, server?.prompt_tokens_per_second)} | ${r.decode_steps} | ${r.decode_seconds.toFixed(2)} | ` +
      `${r.decode_tokens_per_second.toFixed(2)} | ${ratio(r.decode_tokens_per_second, server?.decode_tokens_per_second)} | ` +
      `${r.seconds.toFixed(1)} | ${r.answers_changed} |`,
  );
  return [head, ...lines].join("\n");
}

export function samplesTable(rows: readonly SamplesRow[]): string {
  const first = rows[0]?.samples ?? 1;
  const head =
    `| samples K | runs | tokens read | tokens evaluated | evaluated per run | per run vs K = ${first} | wall s |\n` +
    "|---:|---:|---:|---:|---:|---:|---:|";
  const lines = rows.map(
    (r) =>
      `| ${r.samples} | ${r.runs} | ${r.tokens_read} | ${r.tokens_evaluated} | ${r.evaluated_per_run.toFixed(1)} | ` +
      `${r.per_run_ratio.toFixed(3)}x | ${r.seconds.toFixed(1)} |`,
  );
  return [head, ...lines].join("\n");
}

/** The parallel modes again on a longer slice, against one sequence on it. */
export interface ParallelSection {
  readonly slice: string;
  readonly rows: readonly BenchRow[];
  readonly profiles: readonly ModeProfile[];
}

/** Each binary in a process of its own, on the study slice. */
export interface BinariesSection {
  readonly threads: number;
  readonly rows: readonly BinaryRow[];
}

export interface SamplesSection {
  readonly slice: string;
  readonly rows: readonly SamplesRow[];
}

export interface BenchmarkDoc {
  readonly date: string;
  readonly command: string;
  readonly machine: string;
  readonly versions: string;
  readonly model: string;
  readonly slice: string;
  readonly repeats: number;
  readonly rows: readonly BenchRow[];
  readonly profiles: readonly ModeProfile[];
  readonly parallel: ParallelSection | undefined;
  readonly binaries: BinariesSection | undefined;
  readonly samples: SamplesSection | undefined;
  readonly index: IndexFigures | undefined;
  readonly targets: readonly TargetCheck[];
  readonly notes: readonly string[];
}

export function benchmarksMarkdown(d: BenchmarkDoc): string {
  const targets = d.targets.map((t) => `- **${t.met ? "met" : "missed"}**: ${t.target}. Measured: ${t.measured}.`);
  const profileTable = (profiles: readonly ModeProfile[]) => [
    "| mode | seconds per call (median run) | calls running at once |",
    "|---|---:|---:|",
    ...profiles.map((p) => `| ${p.mode} | ${p.secondsPerCall.toFixed(2)} | ${p.concurrency.toFixed(2)} |`),
  ];
  const parallel = d.parallel
    ? [
        "## Parallel sequences, longer slice",
        "",
        `Slice: ${d.parallel.slice}. Each sequence evaluates its first prompt whole, so 8 sequences evaluate about 7 ` +
          "first prompts more than one does, whatever the slice; only a slice long against that makes the share small " +
          "(see Reading the targets). Same columns as above; speedup and answers changed are against one sequence (cache-reuse) on this slice.",
        "",
        rowsTable(d.parallel.rows),
        "",
        ...profileTable(d.parallel.profiles),
        "",
      ]
    : [];
  const binaries = d.binaries
    ? [
        "## llama.cpp binaries",
        "",
        `The cache-reuse mode (one sequence) on the study slice above, ${d.binaries.threads} thread(s), each in-process binary in a ` +
          "child process of its own (a process keeps the one binary it loads; the prebuilt is reached past the local build " +
          "with NODE_LLAMA_CPP_CMAKE_OPTION_BLOGQA_PREBUILT=1, see Reading the targets), and llama-server's row above again. " +
          "prompt s = time to each call's first new token; decode s = from there to its last, over its decode steps (new tokens after " +
          "the first); llama-server's come from its /metrics counters, which time the same two spans. Answers changed are against the prebuilt's.",
        "",
        binariesTable(d.binaries.rows),
        "",
      ]
    : [];
  const samples = d.samples
    ? [
        "## Samples share their prompt",
        "",
        `Slice: ${d.samples.slice}. \`--samples K\` runs the K samples of a prompt one after another on one sequence, so with ` +
          "cache reuse the prompt they share is evaluated once; one run of each K (token counts do not depend on timing).",
        "",
        samplesTable(d.samples.rows),
        "",
      ]
    : [];
  const index = d.index
    ? [
        "## Index (MiniLM-sized random embedder: 6 layers, width 384, 30,522 rows; hybrid)",
        "",
        "| sections | build s (empty cache) | load s (from cache) | hybrid query ms (median) |",
        "|---:|---:|---:|---:|",
        `| ${d.index.sections} | ${d.index.buildSeconds.toFixed(2)} | ${d.index.loadSeconds.toFixed(2)} | ${d.index.queryMs.toFixed(1)} (of ${d.index.queries}) |`,
        "",
        "Build and load both include loading the embedding model (queries need it).",
        "",
      ]
    : [];
  return [
    BENCH_BEGIN,
    `- Date: ${d.date}`,
    `- Command: \`${d.command}\``,
    `- Machine: ${d.machine}`,
    `- Versions: ${d.versions}`,
    `- Model: ${d.model}`,
    `- Slice: ${d.slice}`,
    `- Repeats: ${d.repeats} per mode (modes interleaved within each repeat); each figure is the median, ratios are within this run`,
    "",
    "## Study slice, CPU",
    "",
    rowsTable(d.rows),
    "",
    "Columns: tokens read = whole rendered prompts; evaluated = prompt tokens really evaluated after KV-cache reuse; agent = the three agent designs' calls only; " +
      "wall s = runStudy's time minus loading the model; speedup = generated tokens/s over naive's; overhead = share of wall time with no model call running " +
      "(busy time is the union of call intervals, so overlapping parallel calls are not counted twice); answers changed = runs whose answer differs from naive's; " +
      "refused runs = runs that ended on a call llama-server refused (a logged call error: see docs/servers.md on invalid UTF-8). " +
      "The llama-server rows send the same slice to llama-server built by scripts/build-llama-server.sh (completions mode, K slots on one context " +
      "of 4096 tokens a slot, the in-process runtime's threads); their tokens come from its /metrics counters, which count the calls it refused too, " +
      "and are not split by design (n/a); a refused agent run makes no further calls, so their slices can be shorter than naive's. " +
      "The in-process modes run with the libuv thread pool `npm run` gives them (bin/threadpool.cjs): one thread, and for the " +
      "separate-context mode a thread per context and one more, in a child process of its own (a process keeps the pool it starts with).",
    "",
    "Profile of the model's time:",
    "",
    ...profileTable(d.profiles),
    "",
    ...parallel,
    ...binaries,
    ...samples,
    ...index,
    "## Targets",
    "",
    ...targets,
    "",
    ...(d.notes.length > 0 ? ["## Notes", "", ...d.notes.map((n) => `- ${n}`), ""] : []),
    BENCH_END,
  ].join("\n");
}

/** The bench writes BENCHMARKS.md between these two lines only; the prose around them is the document's own. */
export const BENCH_BEGIN = "<!-- written by npm run bench: from here to the end marker -->";
export const BENCH_END = "<!-- end of what npm run bench writes -->";

/** `document` with its generated part replaced by `generated` (a document without markers gets them at its end). */
export function replaceGenerated(document: string, generated: string): string {
  const begin = document.indexOf(BENCH_BEGIN);
  const end = document.indexOf(BENCH_END);
  if (begin < 0 || end < begin) return `${document.trimEnd()}\n\n${generated}\n`;
  return document.slice(0, begin) + generated + document.slice(end + BENCH_END.length);
}
