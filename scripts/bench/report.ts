// The benchmark's markdown: the rows as a table, and BENCHMARKS.md with machine, command, slice, targets.
import type { IndexFigures } from "./index-bench.ts";
import type { BenchRow } from "./rows.ts";
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
  readonly index: IndexFigures | undefined;
  readonly targets: readonly TargetCheck[];
  readonly notes: readonly string[];
}

export function benchmarksMarkdown(d: BenchmarkDoc): string {
  const targets = d.targets.map((t) => `- **${t.met ? "met" : "missed"}**: ${t.target}. Measured: ${t.measured}.`);
  const profiles = d.profiles.map(
    (p) => `| ${p.mode} | ${p.secondsPerCall.toFixed(2)} | ${p.concurrency.toFixed(2)} |`,
  );
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
      "and are not split by design (n/a); a refused agent run makes no further calls, so their slices can be shorter than naive's.",
    "",
    "Profile of the model's time:",
    "",
    "| mode | seconds per call (median run) | calls running at once |",
    "|---|---:|---:|",
    ...profiles,
    "",
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
