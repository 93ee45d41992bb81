// The cost chart as inline SVG: tokens read per question against cites right (strict) with its interval, each
// model and design a dot exactly at its two values, its letter on the dot or, where that would hide another point,
// in the nearest free place with a leader line to the dot.
import { wilson, type StrictRow, type StudyRow } from "../scoring/index.ts";
import { DESIGN_LABELS, DESIGN_MARKS } from "../designs/index.ts";
import { escapeHtml } from "./html-escape.ts";
import type { ModelLabel } from "./model-labels.ts";
import { MARK_FONT, markBaseline, markRadius, placeLabels } from "./chart-labels.ts";
import { axisTitle, chartKey, fmt, MODEL_COLORS, niceTicks, pct, svg, whisker } from "./chart-parts.ts";

const DOT_R = 3;

const modelsOf = (study: readonly StudyRow[]) => [...new Set(study.map((r) => r.model))];
const colorOf = (models: readonly string[], model: string) =>
  MODEL_COLORS[models.indexOf(model) % MODEL_COLORS.length]!;

/**
 * Tokens read per question (x) against cites right (strict, y, with its 95% Wilson interval): what each design
 * costs for what it buys. One colour per model, one letter per design. Drawn in layers, so that nothing hides a
 * letter: whiskers, then leader lines, then the dots, then the labels.
 */
export function costChart(study: readonly StudyRow[], strict: readonly StrictRow[], modelLabel: ModelLabel): string {
  const W = 760;
  const left = 70;
  const right = 20;
  const top = 20;
  const plotH = 230;
  const plotW = W - left - right;
  const models = modelsOf(study);
  const points = study.flatMap((row) => {
    const s = strict.find((r) => r.model === row.model && r.design === row.design);
    return s ? [{ row, p: wilson(s.cites_right, s.n) }] : [];
  });
  const r = markRadius(points.map(({ row }) => DESIGN_MARKS[row.design]));
  // A label on a point at 0% reaches r below the axis: the tick labels stand clear of it.
  const tickY = top + plotH + r + 14;
  const H = tickY + 26;
  const xTicks = niceTicks(Math.max(1, ...points.map((p) => p.row.tokens_read)));
  const maxX = xTicks.at(-1)!;
  const x = (tokens: number) => left + (plotW * tokens) / maxX;
  const y = (share: number) => top + plotH * (1 - share);
  const parts: string[] = [];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${left}" x2="${left + plotW}" y1="${y(tick)}" y2="${y(tick)}" class="grid"/>`);
    parts.push(`<text x="${left - 4}" y="${y(tick) + 4}" text-anchor="end" class="tick y-tick">${pct(tick)}</text>`);
  }
  for (const t of xTicks) {
    parts.push(
      `<text x="${fmt(x(t))}" y="${tickY}" text-anchor="middle" class="tick x-tick">${Math.round(t).toLocaleString("en-US")}</text>`,
    );
  }
  parts.push(
    `<text x="${left + plotW / 2}" y="${tickY + 18}" text-anchor="middle" class="tick">tokens read per question (all calls, average)</text>`,
  );
  parts.push(axisTitle(14, top + plotH / 2, "cites right (strict), share of questions"));

  const at = points.map(({ row, p }) => ({
    x: x(row.tokens_read),
    y: y(p.n === 0 ? 0 : p.k / p.n),
    whisker: [y(p.low), y(p.high)] as const,
  }));
  const labels = placeLabels(at, r, DOT_R, { left, right: left + plotW, top, bottom: top + plotH });
  const layers = { whiskers: [] as string[], leaders: [] as string[], dots: [] as string[], labels: [] as string[] };
  points.forEach(({ row, p }, i) => {
    const color = colorOf(models, row.model);
    const dot = at[i]!;
    const label = labels[i]!;
    const tip = escapeHtml(
      `${modelLabel(row.model)}, ${DESIGN_LABELS[row.design]}: ${Math.round(row.tokens_read)} tokens read, cites right ${p.k}/${p.n} (${pct(p.low)}-${pct(p.high)})`,
    );
    const data = `data-model="${escapeHtml(row.model)}" data-design="${row.design}"`;
    layers.whiskers.push(`<g class="whisker" ${data}>${whisker(dot.x, dot.whisker[0], dot.whisker[1], color)}</g>`);
    if (!label.onPoint) {
      // From the dot to the label's edge.
      const d = Math.hypot(label.x - dot.x, label.y - dot.y);
      const [ex, ey] = [label.x - ((label.x - dot.x) * r) / d, label.y - ((label.y - dot.y) * r) / d];
      layers.leaders.push(
        `<line class="leader" ${data} x1="${fmt(dot.x)}" y1="${fmt(dot.y)}" x2="${fmt(ex)}" y2="${fmt(ey)}" stroke="${color}" stroke-width="1"/>`,
      );
    }
    layers.dots.push(
      `<circle class="value" ${data} cx="${fmt(dot.x)}" cy="${fmt(dot.y)}" r="${DOT_R}" fill="${color}" stroke="#fff" stroke-width="1"><title>${tip}</title></circle>`,
    );
    layers.labels.push(
      `<g class="design-mark" ${data}><title>${tip}</title>` +
        `<circle cx="${fmt(label.x)}" cy="${fmt(label.y)}" r="${r}" fill="${color}" stroke="#fff" stroke-width="1"/>` +
        `<text x="${fmt(label.x)}" y="${fmt(markBaseline(label.y))}" text-anchor="middle" font-size="${MARK_FONT}" class="mark">${DESIGN_MARKS[row.design]}</text></g>`,
    );
  });
  const body =
    parts.join("") +
    `<g class="whiskers">${layers.whiskers.join("")}</g><g class="leaders">${layers.leaders.join("")}</g>` +
    `<g class="values">${layers.dots.join("")}</g><g class="labels">${layers.labels.join("")}</g>`;
  return svg(W, H, "Tokens read per question against cites right (strict)", body);
}

/** The cost chart's key: each model's colour and label. */
export function costChartKey(study: readonly StudyRow[], modelLabel: ModelLabel): string {
  const models = modelsOf(study);
  return chartKey(models.map((m) => ({ color: colorOf(models, m), label: modelLabel(m) })));
}
