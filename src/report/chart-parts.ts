// What the report's SVG charts share: number formats, the svg element, axis titles, whiskers, round axis ends, and
// the key under a chart (HTML, so that long names wrap instead of running into each other).
import { escapeHtml } from "./html-escape.ts";
import { CAP_HALF } from "./chart-labels.ts";

export const MODEL_COLORS = ["#4c78a8", "#e45756", "#54a24b", "#b279a2", "#f58518", "#72b7b2"];

export const fmt = (x: number) => (Math.round(x * 10) / 10).toString();
export const pct = (x: number) => `${Math.round(x * 100)}%`;

/** A y-axis title, written upwards beside the axis. */
export function axisTitle(x: number, y: number, text: string): string {
  return `<text transform="translate(${fmt(x)} ${fmt(y)}) rotate(-90)" text-anchor="middle" class="tick axis-title">${escapeHtml(text)}</text>`;
}

/** A vertical interval: a stem from yLow to yHigh at cx, with a cap at each end. */
export function whisker(cx: number, yLow: number, yHigh: number, color = "#333"): string {
  const cap = (y: number) =>
    `<line x1="${fmt(cx - CAP_HALF)}" x2="${fmt(cx + CAP_HALF)}" y1="${fmt(y)}" y2="${fmt(y)}" stroke="${color}" stroke-width="1.5"/>`;
  return (
    `<line x1="${fmt(cx)}" x2="${fmt(cx)}" y1="${fmt(yLow)}" y2="${fmt(yHigh)}" stroke="${color}" stroke-width="1.5"/>` +
    cap(yLow) +
    cap(yHigh)
  );
}

export function svg(width: number, height: number, label: string, body: string, className = "chart"): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(label)}" class="${className}">${body}</svg>`;
}

/**
 * Round ticks from 0 to at least max: up to five steps of 1, 2, 2.5 or 5 times a power of ten (at least 1), so
 * that the last tick is near max. Example: 1030 gives 0, 250, 500, 750, 1000, 1250.
 */
export function niceTicks(max: number): number[] {
  const rough = max / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 2.5, 5, 10].map((m) => m * power).find((v) => v >= rough)!);
  const steps = Math.max(1, Math.ceil(max / step - 1e-9));
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}

/** A chart's key as one wrapping line of entries, each a coloured dot and its (escaped) name. */
export function chartKey(entries: readonly { readonly color: string; readonly label: string }[]): string {
  const items = entries.map(
    (e) =>
      `<span class="key-entry"><svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true"><circle cx="6" cy="6" r="5" fill="${e.color}"/></svg> ${escapeHtml(e.label)}</span>`,
  );
  return `<p class="chart-key">${items.join("")}</p>`;
}
