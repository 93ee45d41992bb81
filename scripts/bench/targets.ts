// The benchmark's targets checked against one benchmark run, each with the measured value and, when missed, what the run saw.
import type { IndexFigures } from "./index-bench.ts";
import type { BenchRow } from "./rows.ts";
import { MODES } from "./run-mode.ts";

/** Per mode, from the same samples as the rows: how the model's time was spent. */
export interface ModeProfile {
  readonly mode: string;
  /** Median seconds of one model call. */
  readonly secondsPerCall: number;
  /** Call-seconds over busy seconds: how many calls ran at once, on average, while any ran. */
  readonly concurrency: number;
}

export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
  /** Why a missed target was missed, from what this run measured. */
  readonly why?: string;
}

export interface TargetInputs {
  readonly rows: readonly BenchRow[];
  readonly profiles: readonly ModeProfile[];
  readonly index: IndexFigures | undefined;
  readonly cores: number;
  readonly threadsPerContext: number;
  readonly questionsPerDesign: number;
  /** Model calls per agent-design run (from the cache-reuse samples). */
  readonly agentCallsPerRun: number;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function checkTargets(t: TargetInputs): TargetCheck[] {
  const row = (mode: string) => t.rows.find((r) => r.mode === mode);
  const profile = (mode: string) => t.profiles.find((p) => p.mode === mode);
  const checks: TargetCheck[] = [];

  const reuse = row("cache-reuse");
  if (reuse) {
    const share = reuse.agent_tokens_evaluated / reuse.agent_tokens_read;
    checks.push({
      target: "Cache reuse: agent tokens evaluated <= 40% of agent tokens read",
      measured: `${reuse.agent_tokens_evaluated} of ${reuse.agent_tokens_read} (${pct(share)})`,
      met: share <= 0.4,
      ...(share <= 0.4
        ? {}
        : {
            why:
              `reuse works within a sequence: a call evaluates only what follows the prefix it shares with the sequence's previous ` +
              `prompt. With ${t.questionsPerDesign} question(s) per design, each design's first run shares little with the run before ` +
              `(another design's prompt) and evaluates nearly all of it; random-weight agents mostly stop after one call ` +
              `(${t.agentCallsPerRun.toFixed(2)} calls per agent run here), so the long within-run prefixes of a real agent loop never occur. ` +
              `A longer slice (more runs per design) lowers the share; a real model that calls tools lowers it further.`,
          }),
    });
  }

  const x8 = row("cache-reuse-x8");
  if (reuse && x8) {
    const ratio = x8.tokens_per_second / reuse.tokens_per_second;
    const p1 = profile("cache-reuse");
    const p8 = profile("cache-reuse-x8");
    const slowdown = p1 && p8 ? p8.secondsPerCall / p1.secondsPerCall : Number.NaN;
    checks.push({
      target: "8 parallel sequences: >= 2.5x the generated tokens/s of one sequence",
      measured: `${ratio.toFixed(2)}x (${x8.tokens_per_second.toFixed(2)} vs ${reuse.tokens_per_second.toFixed(2)} tokens/s)`,
      met: ratio >= 2.5,
      ...(ratio >= 2.5
        ? {}
        : {
            why:
              `on ${t.cores} cores, 8 sequences batched on one context (${t.threadsPerContext} thread(s)): on average ` +
              `${p8?.concurrency.toFixed(1) ?? "?"} calls ran at once, and each call took ${slowdown.toFixed(1)}x as long as with one ` +
              `sequence. Batching shares each weight read among the sequences' new tokens, which pays while decoding is bound by ` +
              `memory bandwidth; prompt evaluation, most of each call here, is bound by compute, so more sequences divide the same ` +
              `compute, and 8 sequences reuse less: each reuses only its own previous prompt, so x8 evaluated ` +
              `${x8.tokens_evaluated} prompt tokens against ${reuse.tokens_evaluated} for one sequence. ` +
              `Compare cache-reuse-x8-separate (8 contexts) in the table.`,
          }),
    });
  }

  if (t.rows.length > 0) {
    const worst = t.rows.reduce((a, b) => (b.overhead > a.overhead ? b : a));
    checks.push({
      target: "Harness overhead <= 5% of wall time (every mode)",
      measured: `worst ${pct(worst.overhead)} (${worst.mode}); ${t.rows.map((r) => `${r.mode} ${pct(r.overhead)}`).join(", ")}`,
      met: worst.overhead <= 0.05,
      ...(worst.overhead <= 0.05
        ? {}
        : { why: `in ${worst.mode}, ${pct(worst.overhead)} of wall time had no model call running: context creation, search, tool calls, prompt rendering, log writes, and (in parallel modes) the tail where fewer runs than sequences remain` }),
    });
  }

  const changed = t.rows.filter((r) => r.answers_changed > 0);
  checks.push({
    target: "Every mode gives naive's answers on the CPU",
    measured: `${t.rows.map((r) => `${r.mode} ${r.answers_changed}`).join(", ")} changed`,
    met: changed.length === 0,
    ...(changed.length === 0
      ? {}
      : {
          why:
            `answers changed in ${changed.map((r) => r.mode).join(", ")}` +
            (changed.every((r) => MODES.find((m) => m.name === r.mode)?.sharedContext)
              ? `, every one a mode that batches sequences on one context. llama.cpp computes a batch of several sequences' ` +
                `tokens with other kernels and another summation order than a batch of one, so logits differ in their last bits ` +
                `and a greedy near-tie can flip; random weights make near-ties common. Modes with separate contexts changed none, ` +
                `which is why --parallel keeps separate contexts unless --shared-context is asked for.`
              : ""),
        }),
  });

  if (t.index) {
    const i = t.index;
    checks.push({ target: "Index built with a MiniLM-sized model well under 15 s", measured: `${i.buildSeconds.toFixed(2)} s (${i.sections} sections)`, met: i.buildSeconds < 15, ...(i.buildSeconds < 15 ? {} : { why: `embedding is compute-bound: each word piece (up to 256 a section) costs about 21 MFLOP through 6 layers of width 384, so the whole corpus needs on the order of a TFLOP; on ${t.cores} cores that takes ~15 s even at a good fraction of peak, and longer when other processes share the cores (see the load average)` }) });
    checks.push({ target: "Index loaded from cache in under 1 s", measured: `${i.loadSeconds.toFixed(2)} s (from cache: ${i.fromCache})`, met: i.loadSeconds < 1 && i.fromCache, ...(i.loadSeconds < 1 ? {} : { why: "loading includes the embedding model's ONNX session, needed to embed queries" }) });
    checks.push({ target: "One hybrid query under 20 ms after load", measured: `${i.queryMs.toFixed(1)} ms (median of ${i.queries})`, met: i.queryMs < 20, ...(i.queryMs < 20 ? {} : { why: "embedding the query through the ONNX session dominates" }) });
  }
  return checks;
}
