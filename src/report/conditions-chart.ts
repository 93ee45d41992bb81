// The samples-and-wordings chart as inline SVG: per model, each design's strict cites right in every (wording,
// sample) condition as a dot, beside the design's mean over questions with its question-clustered interval.
import { BOOTSTRAP_RESAMPLES, type ConditionRow, type DesignRateRow } from "../scoring/index.ts";
import { DESIGN_LABELS, DESIGN_MARKS, type DesignId } from "../designs/index.ts";
import { escapeHtml } from "./html-escape.ts";
import type { ModelLabel } from "./model-labels.ts";
import { axisTitle, chartKey, fmt, pct, svg, whisker } from "./chart-parts.ts";
import { marksLegend } from "./svg-charts.ts";

/** One colour per wording, in the order the log first ran them. */
const WORDING_COLORS = ["#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2", "#9d755d", "#bab0ac"];
const MEAN_COLOR = "#222";

export interface ConditionsChartInput {
  readonly conditions: readonly ConditionRow[];
  readonly designRates: readonly DesignRateRow[];
}

const conditionKey = (c: Pick<ConditionRow, "wording" | "sample">) => JSON.stringify([c.wording, c.sample]);
const share = (c: ConditionRow) => (c.cites_right.n === 0 ? 0 : c.cites_right.k / c.cites_right.n);

/** The conditions in the log's order (wording first seen, then sample), and the wordings among them. */
function conditionsOf(rows: readonly ConditionRow[]) {
  const wordings = [...new Set(rows.map((r) => r.wording))];
  const seen = new Map<string, { wording: string; sample: number }>();
  for (const r of rows) seen.set(conditionKey(r), { wording: r.wording, sample: r.sample });
  const conditions = [...seen.values()].sort(
    (a, b) => wordings.indexOf(a.wording) - wordings.indexOf(b.wording) || a.sample - b.sample,
  );
  return { wordings, conditions };
}

const wordingColor = (wordings: readonly string[], wording: string) =>
  WORDING_COLORS[wordings.indexOf(wording) % WORDING_COLORS.length]!;

/**
 * The chart, its key and its caption; nothing for a log of one (wording, sample) condition, which has nothing to
 * spread.
 */
export function conditionsChartHtml(input: ConditionsChartInput, modelLabel: ModelLabel): string {
  const { wordings, conditions } = conditionsOf(input.conditions);
  if (conditions.length < 2) return "";
  const key = chartKey(wordings.map((w) => ({ color: wordingColor(wordings, w), label: `wording ${w}` })));
  return `${conditionsChart(input, modelLabel)}\n${key}\n<p class="caption">${escapeHtml(conditionsCaption(input))}</p>\n`;
}

/**
 * One panel per model, designs along the axis; in each design's band a dot per condition (in wording, then sample
 * order, coloured by wording) at its strict cites right, and to its right the design's mean as a bar with its 95%
 * interval as a whisker. Whiskers are drawn first, so that no dot or bar is hidden under one.
 */
export function conditionsChart(input: ConditionsChartInput, modelLabel: ModelLabel): string {
  const { wordings, conditions } = conditionsOf(input.conditions);
  const models = [...new Set(input.designRates.map((r) => r.model))];
  const W = 760;
  const left = 70;
  const right = 20;
  const plotW = W - left - right;
  const plotH = 170;
  const panelH = 24 + plotH + 28;
  const H = panelH * models.length + 4;
  const whiskers: string[] = [];
  const marks: string[] = [];
  const axes: string[] = [];
  models.forEach((model, m) => {
    const top = m * panelH + 24;
    const y = (s: number) => top + plotH * (1 - s);
    axes.push(`<text x="${left}" y="${top - 10}" class="panel-title">${escapeHtml(modelLabel(model))}</text>`);
    axes.push(axisTitle(14, top + plotH / 2, "cites right (strict)"));
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      axes.push(`<line x1="${left}" x2="${left + plotW}" y1="${y(tick)}" y2="${y(tick)}" class="grid"/>`);
      axes.push(`<text x="${left - 4}" y="${y(tick) + 4}" text-anchor="end" class="tick y-tick">${pct(tick)}</text>`);
    }
    const rates = input.designRates.filter((r) => r.model === model);
    const bandW = plotW / Math.max(1, rates.length);
    // The dots share the band's left two thirds, one slot per condition; the mean stands in the last third.
    const slot = (bandW * 0.6) / conditions.length;
    const dotR = Math.max(1.5, Math.min(4, slot / 2 - 0.25));
    rates.forEach((rate, d) => {
      const x0 = left + bandW * d;
      const data = `data-model="${escapeHtml(model)}" data-design="${rate.design}"`;
      axes.push(
        `<text x="${fmt(x0 + bandW / 2)}" y="${top + plotH + 16}" text-anchor="middle" class="tick design-tick">${DESIGN_MARKS[rate.design]}</text>`,
      );
      for (const c of input.conditions.filter((r) => r.model === model && r.design === rate.design)) {
        const j = conditions.findIndex((k) => conditionKey(k) === conditionKey(c));
        const p = c.cites_right;
        const tip = `${modelLabel(model)}, ${DESIGN_LABELS[rate.design]}, wording ${c.wording}, sample ${c.sample}: cites right ${p.k}/${p.n} (${pct(p.low)}-${pct(p.high)})`;
        marks.push(
          `<circle class="condition" ${data} data-wording="${escapeHtml(c.wording)}" data-sample="${c.sample}" cx="${fmt(x0 + bandW * 0.1 + slot * (j + 0.5))}" cy="${fmt(y(share(c)))}" r="${fmt(dotR)}" fill="${wordingColor(wordings, c.wording)}" fill-opacity="0.8"><title>${escapeHtml(tip)}</title></circle>`,
        );
      }
      const mean = rate.cites_right;
      const cx = x0 + bandW * 0.82;
      const tip = `${modelLabel(model)}, ${DESIGN_LABELS[rate.design]}: mean cites right ${pct(mean.mean)} over ${rate.questions} questions (95% interval ${pct(mean.low)}-${pct(mean.high)})`;
      whiskers.push(`<g class="whisker" ${data}>${whisker(cx, y(mean.low), y(mean.high), MEAN_COLOR)}</g>`);
      marks.push(
        `<line class="mean" ${data} x1="${fmt(cx - 7)}" x2="${fmt(cx + 7)}" y1="${fmt(y(mean.mean))}" y2="${fmt(y(mean.mean))}" stroke="${MEAN_COLOR}" stroke-width="3"><title>${escapeHtml(tip)}</title></line>`,
      );
    });
  });
  const body = `${axes.join("")}<g class="whiskers">${whiskers.join("")}</g><g class="marks">${marks.join("")}</g>`;
  return svg(
    W,
    H,
    "Cites right (strict) per design in each (wording, sample) condition",
    body,
    "chart conditions-chart",
  );
}

/** What the dots and bars are, counted from the run. */
function conditionsCaption(input: ConditionsChartInput): string {
  const { wordings, conditions } = conditionsOf(input.conditions);
  const samples = new Set(conditions.map((c) => c.sample)).size;
  const counts = [...new Set(input.conditions.map((c) => c.cites_right.n))].sort((a, b) => a - b);
  const questions =
    counts.length === 1
      ? `${counts[0]} question${counts[0] === 1 ? "" : "s"}`
      : `${counts[0]} to ${counts.at(-1)} questions`;
  const grid =
    conditions.length === wordings.length * samples
      ? ` (${wordings.length} wording${wordings.length === 1 ? "" : "s"} x ${samples} sample${samples === 1 ? "" : "s"})`
      : "";
  const designs = [...new Set(input.designRates.map((r) => r.design))] as DesignId[];
  return (
    `Each dot: one of the ${conditions.length} (wording, sample) conditions${grid}, strict cites right of one pass ` +
    `over its ${questions}, in wording then sample order. Bar and whisker: the design's mean over questions of each ` +
    "question's rate across all its conditions, with a 95% interval from a bootstrap over questions " +
    `(${BOOTSTRAP_RESAMPLES} resamples of the questions, each with all its samples, fixed seed). ${marksLegend(designs)}.`
  );
}
