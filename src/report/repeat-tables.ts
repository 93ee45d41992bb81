// The tables of a log with repeated samples or several wordings, as grids and CSV rows; nothing for a log of one
// greedy pass of the study's wording, whose tables stay the study's.
import { DESIGN_LABELS, DEFAULT_WORDING_ID } from "../designs/index.ts";
import type { OnePostAnswer } from "../runs/index.ts";
import {
  BOOTSTRAP_RESAMPLES,
  conditionRows,
  designRateRows,
  formatP,
  formatProportion,
  pairedRateRows,
  repeatRows,
  sensitivityRows,
  type ConditionRow,
  type DesignRateRow,
  type MeanInterval,
  type PairedRateRow,
  type RepeatRow,
  type SensitivityRow,
} from "../scoring/index.ts";
import type { ModelLabel } from "./model-labels.ts";
import type { TableGrid } from "./tables.ts";

/** Whether a log holds anything beyond one greedy pass of the default wording. */
function hasRepeats(records: readonly OnePostAnswer[]): boolean {
  return records.some((r) => (r.sample ?? 0) !== 0 || (r.wording ?? DEFAULT_WORDING_ID) !== DEFAULT_WORDING_ID);
}

const INTERVAL =
  `95% intervals: a bootstrap over questions (${BOOTSTRAP_RESAMPLES} resamples of the questions, each with all its ` +
  "samples, fixed seed), so that the samples of one question count as one cluster.";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const withInterval = (m: MeanInterval) => `${pct(m.mean)} (${pct(m.low)}-${pct(m.high)})`;
const signed = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}`;

export interface RepeatTables {
  readonly grids: readonly TableGrid[];
  /** The computed sentence of each model's paired row. */
  readonly sentences: readonly string[];
  readonly conditions: readonly ConditionRow[];
  /** Each design's mean over all its conditions, for the chart. */
  readonly designRates: readonly DesignRateRow[];
  readonly repeats: readonly RepeatRow[];
  readonly paired: readonly PairedRateRow[];
  readonly sensitivity: readonly SensitivityRow[];
}

/** The three tables, or undefined for a log of one greedy pass of the default wording. */
export function repeatTables(
  records: readonly OnePostAnswer[],
  slugs: readonly string[],
  label: ModelLabel,
): RepeatTables | undefined {
  if (!hasRepeats(records)) return undefined;
  const repeats = repeatRows(records, slugs);
  const paired = pairedRateRows(records, slugs);
  const sensitivity = sensitivityRows(records, slugs);
  const conditions = conditionRows(records, slugs);
  const grids = [repeatGrid(repeats, label), pairedGrid(paired, label)];
  if (sensitivity.length > 0) grids.push(sensitivityGrid(sensitivity, label));
  grids.push(conditionsGrid(conditions, label));
  const designRates = designRateRows(records, slugs);
  return {
    grids,
    sentences: paired.map((r) => pairedSentence(r, label)),
    conditions,
    designRates,
    repeats,
    paired,
    sensitivity,
  };
}

function repeatGrid(rows: readonly RepeatRow[], label: ModelLabel): TableGrid {
  const k = Math.max(...rows.map((r) => r.samples));
  const ks = Array.from({ length: k }, (_, i) => i + 1);
  return {
    caption: "Repeated samples (beyond the study): strict cites right and found over each question's samples",
    header: [
      "model",
      "design",
      "wording",
      "questions",
      "samples",
      "cites right (strict)",
      "found",
      ...ks.map((i) => `pass@${i}`),
      ...ks.map((i) => `pass^${i}`),
    ],
    rows: rows.map((r) => [
      label(r.model),
      DESIGN_LABELS[r.design],
      r.wording,
      r.questions,
      r.samples,
      withInterval(r.cites_right),
      withInterval(r.found),
      ...ks.map((i) => (r.pass_at_k[i - 1] === undefined ? "" : pct(r.pass_at_k[i - 1]!))),
      ...ks.map((i) => (r.pass_hat_k[i - 1] === undefined ? "" : pct(r.pass_hat_k[i - 1]!))),
    ]),
    notes: [
      INTERVAL,
      "pass@k: Chen et al. (2021)'s unbiased estimate that at least one of k samples cites right; pass^k: that all " +
        "k do (as tau-bench estimates it); each averaged over questions.",
    ],
  };
}

function pairedGrid(rows: readonly PairedRateRow[], label: ModelLabel): TableGrid {
  return {
    caption: "The workflow against the best agent, question by question (beyond the study)",
    header: ["model", "best agent", "questions", "mean difference (points)", "W+", "p (Wilcoxon)", "conditions won"],
    rows: rows.map((r) => [
      label(r.model),
      DESIGN_LABELS[r.agent],
      r.questions,
      `${signed(r.difference.mean)} (${signed(r.difference.low)} to ${signed(r.difference.high)})`,
      r.test.wPlus,
      formatP(r.test.p),
      `${r.workflow_ahead} of ${r.conditions}`,
    ]),
    notes: [
      "Each question's strict cites-right rate over all its wordings and samples, the workflow's minus the best " +
        "study agent's; p: the exact two-sided Wilcoxon signed-rank test on those differences (zeros dropped, " +
        `midranks for ties). ${INTERVAL}`,
      ...rows.map((r) => pairedSentence(r, label)),
    ],
  };
}

/** Every (wording, sample) condition as its own point: one pass over the questions, with its Wilson interval. */
function conditionsGrid(rows: readonly ConditionRow[], label: ModelLabel): TableGrid {
  return {
    caption: "Each (wording, sample) condition (beyond the study): strict cites right of one pass over the questions",
    header: ["model", "design", "wording", "sample", "cites right (strict)"],
    rows: rows.map((r) => [
      label(r.model),
      DESIGN_LABELS[r.design],
      r.wording,
      r.sample,
      formatProportion(r.cites_right),
    ]),
    notes: ["Intervals: 95% Wilson intervals over the questions of that one pass."],
  };
}

/** The one sentence a reader wants: how often, and by how much, the workflow beat the best agent. */
function pairedSentence(r: PairedRateRow, label: ModelLabel): string {
  return (
    `${label(r.model)}: the workflow cited right more often than ${DESIGN_LABELS[r.agent]} in ` +
    `${r.workflow_ahead} of ${r.conditions} (wording, sample) conditions; the mean paired difference is ` +
    `${signed(r.difference.mean)} points (95% interval ${signed(r.difference.low)} to ${signed(r.difference.high)}).`
  );
}

function sensitivityGrid(rows: readonly SensitivityRow[], label: ModelLabel): TableGrid {
  const wordings = [...new Set(rows.flatMap((r) => r.rates.map((x) => x.wording)))];
  return {
    caption: "Sensitivity to the prompt's wording (beyond the study): strict cites right under each wording",
    header: ["model", "design", ...wordings, "spread (points)", "questions that flip"],
    rows: rows.map((r) => [
      label(r.model),
      DESIGN_LABELS[r.design],
      ...wordings.map((w) => {
        const rate = r.rates.find((x) => x.wording === w);
        return rate === undefined ? "" : pct(rate.rate);
      }),
      (r.spread * 100).toFixed(1),
      r.flips.length === 0 ? "none" : r.flips.join(" "),
    ]),
    notes: [
      "Spread: the highest wording's rate minus the lowest. A question flips when it cites right (in more than " +
        "half of its samples) under one wording and not under another.",
    ],
  };
}

/** The CSV rows of each table: one column per figure, intervals as two columns. */
export function repeatCsvRows(t: RepeatTables) {
  return {
    repeats: t.repeats.map((r) => ({
      model: r.model,
      design: r.design,
      wording: r.wording,
      questions: r.questions,
      samples: r.samples,
      cites_right: r.cites_right.mean,
      cites_right_low: r.cites_right.low,
      cites_right_high: r.cites_right.high,
      found: r.found.mean,
      found_low: r.found.low,
      found_high: r.found.high,
      ...Object.fromEntries(r.pass_at_k.map((v, i) => [`pass_at_${i + 1}`, v])),
      ...Object.fromEntries(r.pass_hat_k.map((v, i) => [`pass_hat_${i + 1}`, v])),
    })),
    paired: t.paired.map((r) => ({
      model: r.model,
      agent: r.agent,
      questions: r.questions,
      difference: r.difference.mean,
      difference_low: r.difference.low,
      difference_high: r.difference.high,
      w_plus: r.test.wPlus,
      nonzero: r.test.n,
      p_wilcoxon: r.test.p,
      conditions: r.conditions,
      workflow_ahead: r.workflow_ahead,
    })),
    conditions: t.conditions.map((r) => ({
      model: r.model,
      design: r.design,
      wording: r.wording,
      sample: r.sample,
      cites_right: r.cites_right.k,
      n: r.cites_right.n,
      low: r.cites_right.low,
      high: r.cites_right.high,
    })),
    sensitivity: t.sensitivity.flatMap((r) =>
      r.rates.map((x) => ({
        model: r.model,
        design: r.design,
        wording: x.wording,
        cites_right: x.rate,
        spread: r.spread,
        flips: r.flips.join(" "),
      })),
    ),
  };
}
