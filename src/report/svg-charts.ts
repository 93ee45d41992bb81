// The report's two charts as inline SVG strings: shares with Wilson intervals, and what each design's tokens buy.
import { wilson, type Proportion, type StrictRow, type StudyRow } from "../scoring/index.ts";
import { DESIGN_LABELS, DESIGN_MARKS, type DesignId } from "../designs/index.ts";
import { escapeHtml } from "./html-escape.ts";
import { modelLabel } from "./tables.ts";

const FOUND_COLOR = "#4c78a8";
const RIGHT_COLOR = "#e45756";
const MODEL_COLORS = ["#4c78a8", "#e45756", "#54a24b", "#b279a2", "#f58518", "#72b7b2"];

const fmt = (x: number) => (Math.round(x * 10) / 10).toString();
const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * One panel per model; in each, a pair of bars per design: found and cites right (strict), as shares of the
 * questions, with 95% Wilson intervals as whiskers. Bars carry <title> tooltips with the counts.
 */
export function sharesChart(rows: readonly StrictRow[]): string {
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

/**
 * Tokens read per question (x) against cites right (strict, y, with its interval): what each design costs
 * for what it buys. One colour per model, one letter per design.
 */
export function costChart(study: readonly StudyRow[], strict: readonly StrictRow[]): string {
  const W = 760;
  const H = 320;
  const left = 70;
  const right = 20;
  const top = 20;
  const plotH = 230;
  const plotW = W - left - right;
  const models = [...new Set(study.map((r) => r.model))];
  const points = study.flatMap((row) => {
    const s = strict.find((r) => r.model === row.model && r.design === row.design);
    return s ? [{ row, p: wilson(s.cites_right, s.n) }] : [];
  });
  const maxX = niceCeiling(Math.max(1, ...points.map((p) => p.row.tokens_read)));
  const x = (tokens: number) => left + (plotW * tokens) / maxX;
  const y = (share: number) => top + plotH * (1 - share);
  const parts: string[] = [];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${left}" x2="${left + plotW}" y1="${y(tick)}" y2="${y(tick)}" class="grid"/>`);
    parts.push(`<text x="${left - 4}" y="${y(tick) + 4}" text-anchor="end" class="tick">${pct(tick)}</text>`);
  }
  for (let i = 0; i <= 4; i++) {
    const t = (maxX * i) / 4;
    parts.push(
      `<text x="${fmt(x(t))}" y="${top + plotH + 16}" text-anchor="middle" class="tick">${Math.round(t).toLocaleString("en-US")}</text>`,
    );
  }
  parts.push(
    `<text x="${left + plotW / 2}" y="${top + plotH + 34}" text-anchor="middle" class="tick">tokens read per question (all calls, average)</text>`,
  );
  parts.push(axisTitle(14, top + plotH / 2, "cites right (strict), share of questions"));
  const wanted = points.map(({ row, p }) => ({ x: x(row.tokens_read), y: y(p.n === 0 ? 0 : p.k / p.n) }));
  const placed = placeMarkers(wanted, MARK_R, left, left + plotW);
  points.forEach(({ row, p }, i) => {
    const color = MODEL_COLORS[models.indexOf(row.model) % MODEL_COLORS.length]!;
    const at = wanted[i]!;
    const mark = placed[i]!;
    const tip = `${modelLabel(row.model)}, ${DESIGN_LABELS[row.design]}: ${Math.round(row.tokens_read)} tokens read, cites right ${p.k}/${p.n} (${pct(p.low)}-${pct(p.high)})`;
    // A marker moved aside so as not to hide another keeps a leader line to its true place, marked by a dot.
    const leader =
      mark.x === at.x
        ? ""
        : `<line x1="${fmt(at.x)}" x2="${fmt(mark.x)}" y1="${fmt(at.y)}" y2="${fmt(mark.y)}" stroke="${color}" stroke-width="1"/><circle cx="${fmt(at.x)}" cy="${fmt(at.y)}" r="2.5" fill="${color}"/>`;
    parts.push(
      `<g class="design-mark"><title>${escapeHtml(tip)}</title>${whisker(at.x, y(p.low), y(p.high), color)}${leader}` +
        `<circle cx="${fmt(mark.x)}" cy="${fmt(mark.y)}" r="${MARK_R}" fill="${color}" stroke="#fff" stroke-width="1"/>` +
        `<text x="${fmt(mark.x)}" y="${fmt(mark.y + 4)}" text-anchor="middle" class="mark">${DESIGN_MARKS[row.design]}</text></g>`,
    );
  });
  const legend = models
    .map(
      (m, i) =>
        `<circle cx="${left + 6 + i * 200}" cy="${H - 14}" r="6" fill="${MODEL_COLORS[i % MODEL_COLORS.length]}"/><text x="${left + 16 + i * 200}" y="${H - 10}" class="tick">${escapeHtml(modelLabel(m))}</text>`,
    )
    .join("");
  return svg(W, H, "Tokens read per question against cites right (strict)", parts.join("") + legend);
}

const MARK_R = 9;

/**
 * Marker centres that do not overlap: each point in turn keeps its height (the measure) and moves sideways by whole
 * marker widths, nearest free place first, staying within [minX, maxX]. Example: three points at one spot come back
 * at x, x + 20 and x - 20.
 */
export function placeMarkers(
  points: readonly { x: number; y: number }[],
  r: number,
  minX: number,
  maxX: number,
): { x: number; y: number }[] {
  const step = 2 * r + 2;
  const placed: { x: number; y: number }[] = [];
  for (const p of points) {
    const free = (x: number) => placed.every((q) => Math.hypot(q.x - x, q.y - p.y) >= step - 0.01);
    let x = p.x;
    for (let k = 1; !free(x) && k < 200; k++) {
      const shift = Math.ceil(k / 2) * step * (k % 2 === 1 ? 1 : -1);
      const candidate = p.x + shift;
      if (candidate < minX + r || candidate > maxX - r) continue;
      x = candidate;
    }
    placed.push({ x, y: p.y });
  }
  return placed;
}

/** A y-axis title, written upwards beside the axis. */
function axisTitle(x: number, y: number, text: string): string {
  return `<text transform="translate(${fmt(x)} ${fmt(y)}) rotate(-90)" text-anchor="middle" class="tick axis-title">${escapeHtml(text)}</text>`;
}

/** "W = one retrieval, one answer, A = ...": the key to the letters of the designs shown, for a caption. */
export function marksLegend(designs: readonly DesignId[]): string {
  return (Object.keys(DESIGN_MARKS) as DesignId[])
    .filter((v) => designs.includes(v))
    .map((v) => `${DESIGN_MARKS[v]} = ${DESIGN_LABELS[v]}`)
    .join(", ");
}

function whisker(cx: number, yLow: number, yHigh: number, color = "#333"): string {
  return (
    `<line x1="${fmt(cx)}" x2="${fmt(cx)}" y1="${fmt(yLow)}" y2="${fmt(yHigh)}" stroke="${color}" stroke-width="1.5"/>` +
    `<line x1="${fmt(cx - 4)}" x2="${fmt(cx + 4)}" y1="${fmt(yLow)}" y2="${fmt(yLow)}" stroke="${color}" stroke-width="1.5"/>` +
    `<line x1="${fmt(cx - 4)}" x2="${fmt(cx + 4)}" y1="${fmt(yHigh)}" y2="${fmt(yHigh)}" stroke="${color}" stroke-width="1.5"/>`
  );
}

function svg(width: number, height: number, label: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(label)}" class="chart">${body}</svg>`;
}

/** 1, 2 or 5 times a power of ten, at or above x: round axis ends. */
function niceCeiling(x: number): number {
  const power = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((m) => m * power).find((v) => v >= x)!;
}
