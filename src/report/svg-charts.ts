// The shares chart as an inline SVG string (found and cites right with Wilson intervals), and the key to the letters.
import { wilson, type Proportion, type StrictRow } from "../scoring/index.ts";
import { DESIGN_LABELS, DESIGN_MARKS, type DesignId } from "../designs/index.ts";
import { escapeHtml } from "./html-escape.ts";
import { axisTitle, fmt, pct, svg, whisker } from "./chart-parts.ts";
import type { ModelLabel } from "./model-labels.ts";

const FOUND_COLOR = "#4c78a8";
const RIGHT_COLOR = "#e45756";

/**
 * One panel per model; in each, a pair of bars per design: found and cites right (strict), as shares of the
 * questions, with 95% Wilson intervals as whiskers. Bars carry <title> tooltips with the counts.
 */
export function sharesChart(rows: readonly StrictRow[], modelLabel: ModelLabel): string {
  const models = [...new Set(rows.map((r) => r.model))];
  // A fixed width (wider only past two models) keeps the text the same size whatever the number of panels.
  const panelW = Math.max(380, 760 / Math.max(1, models.length));
  const H = 300;
  const top = 40;
  const plotH = 200;
  const left = 52;
  const W = panelW * Math.max(1, models.length);
  const y = (share: number) => top + plotH * (1 - share);
  const parts: string[] = [];
  models.forEach((model, m) => {
    const x0 = m * panelW + left;
    const plotW = panelW - left - 10;
    const designs = rows.filter((r) => r.model === model);
    parts.push(
      `<text x="${x0 + plotW / 2}" y="18" text-anchor="middle" class="panel-title">${escapeHtml(modelLabel(model))}</text>`,
    );
    if (m === 0) parts.push(axisTitle(12, top + plotH / 2, "share of questions"));
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      parts.push(`<line x1="${x0}" x2="${x0 + plotW}" y1="${y(tick)}" y2="${y(tick)}" class="grid"/>`);
      parts.push(`<text x="${x0 - 4}" y="${y(tick) + 4}" text-anchor="end" class="tick">${pct(tick)}</text>`);
    }
    const groupW = plotW / Math.max(1, designs.length);
    const barW = Math.min(28, groupW / 3);
    designs.forEach((row, d) => {
      const cx = x0 + groupW * (d + 0.5);
      const bars: [string, string, Proportion][] = [
        ["found", FOUND_COLOR, wilson(row.found, row.n)],
        ["cites right (strict)", RIGHT_COLOR, wilson(row.cites_right, row.n)],
      ];
      bars.forEach(([label, color, p], b) => {
        const bx = cx + (b === 0 ? -barW - 1 : 1);
        const share = p.n === 0 ? 0 : p.k / p.n;
        const tip = `${modelLabel(model)}, ${DESIGN_LABELS[row.design]}: ${label} ${p.k}/${p.n} (95% interval ${pct(p.low)}-${pct(p.high)})`;
        parts.push(
          `<g><title>${escapeHtml(tip)}</title><rect x="${fmt(bx)}" y="${fmt(y(share))}" width="${fmt(barW)}" height="${fmt(plotH * share)}" fill="${color}"/>` +
            whisker(bx + barW / 2, y(p.low), y(p.high)) +
            `<text x="${fmt(bx + barW / 2)}" y="${fmt(y(p.high) - 4)}" text-anchor="middle" class="count">${p.k}</text></g>`,
        );
      });
      parts.push(
        `<text x="${fmt(cx)}" y="${top + plotH + 16}" text-anchor="middle" class="tick">${escapeHtml(DESIGN_MARKS[row.design])}</text>`,
      );
    });
  });
  const legend =
    `<rect x="${left}" y="${H - 26}" width="12" height="12" fill="${FOUND_COLOR}"/><text x="${left + 16}" y="${H - 16}" class="tick">found</text>` +
    `<rect x="${left + 70}" y="${H - 26}" width="12" height="12" fill="${RIGHT_COLOR}"/><text x="${left + 86}" y="${H - 16}" class="tick">cites right (strict)</text>`;
  return svg(W, H, "Found and cites right (strict) per design and model", parts.join("") + legend);
}

/** "W = one retrieval, one answer, A = ...": the key to the letters of the designs shown, for a caption. */
export function marksLegend(designs: readonly DesignId[]): string {
  return (Object.keys(DESIGN_MARKS) as DesignId[])
    .filter((v) => designs.includes(v))
    .map((v) => `${DESIGN_MARKS[v]} = ${DESIGN_LABELS[v]}`)
    .join(", ");
}
