// The scale chart as inline SVG: each design's cites right (strict, with intervals) and tokens read against model size.
import type { ScalePoint } from "../scoring/index.ts";
import { DESIGN_IDS, DESIGN_LABELS, type DesignId } from "../designs/index.ts";
import { escapeHtml } from "./html-escape.ts";
import { DESIGN_MARKS } from "../designs/index.ts";
import { MARK_FONT, markBaseline, markRadius } from "./chart-labels.ts";

/** One colour per design, in DESIGN_IDS order. */
const DESIGN_COLORS = ["#4c78a8", "#e45756", "#f58518", "#54a24b", "#b279a2", "#72b7b2", "#9d755d", "#bab0ac"];
const colorOf = (design: DesignId) => DESIGN_COLORS[DESIGN_IDS.indexOf(design) % DESIGN_COLORS.length]!;

const fmt = (x: number) => (Math.round(x * 10) / 10).toString();
const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * Two panels over one x axis, model parameters on a log scale: cites right (strict) with 95% Wilson whiskers above,
 * tokens read per question below. One colour and letter per design, a line joining its sizes; each model's label
 * stands over its size. `note` (the random-weights warning) is written across the top, in the chart itself.
 */
export function scaleChart(points: readonly ScalePoint[], note?: string): string {
  const W = 760;
  const left = 70;
  const right = 24;
  const plotW = W - left - right;
  const top = note !== undefined ? 72 : 52;
  const panelH = 190;
  const gap = 44;
  const lowTop = top + panelH + gap;
  const designs = DESIGN_IDS.filter((d) => points.some((p) => p.design === d));
  const r = markRadius(designs.map((d) => DESIGN_MARKS[d]));
  // Each size's designs stand side by side: the outermost stay inside the plot.
  const step = 2 * r + 2;
  const inset = ((designs.length - 1) / 2) * step + r;
  // The key under the axis title: three designs a row (a column fits the longest label).
  const keyRows = Math.ceil(designs.length / 3);
  const H = lowTop + panelH + 36 + keyRows * (2 * r + 4) + 6;
  const sizes = [...new Set(points.map((p) => p.params_b))];
  const [lo, hi] = [Math.min(...sizes) / 1.6, Math.max(...sizes) * 1.6];
  const x = (b: number) => left + inset + ((plotW - 2 * inset) * Math.log(b / lo)) / Math.log(hi / lo);
  const yShare = (s: number) => top + panelH * (1 - s);
  const maxTokens = niceCeiling(Math.max(1, ...points.map((p) => p.tokens_read)));
  const yTokens = (t: number) => lowTop + panelH * (1 - t / maxTokens);
  const parts: string[] = [];
  if (note !== undefined)
    parts.push(`<text x="${left}" y="18" class="tick scale-note" fill="#a00">${escapeHtml(note)}</text>`);
  parts.push(`<text x="${left}" y="${top - 32}" class="panel-title">cites right (strict)</text>`);
  parts.push(`<text x="${left}" y="${lowTop - 14}" class="panel-title">tokens read per question</text>`);
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${left}" x2="${left + plotW}" y1="${yShare(tick)}" y2="${yShare(tick)}" class="grid"/>`);
    parts.push(`<text x="${left - 4}" y="${yShare(tick) + 4}" text-anchor="end" class="tick">${pct(tick)}</text>`);
  }
  for (let i = 0; i <= 4; i++) {
    const t = (maxTokens * i) / 4;
    parts.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${fmt(yTokens(t))}" y2="${fmt(yTokens(t))}" class="grid"/>`,
    );
    parts.push(
      `<text x="${left - 4}" y="${fmt(yTokens(t) + 4)}" text-anchor="end" class="tick">${Math.round(t).toLocaleString("en-US")}</text>`,
    );
  }
  // The x axis: powers of ten and their 2 and 5, in billions, under the lower panel (the upper one's would sit
  // among its 0% marks).
  for (const b of logTicks(lo, hi))
    parts.push(`<text x="${fmt(x(b))}" y="${lowTop + panelH + 15}" text-anchor="middle" class="tick">${b}B</text>`);
  parts.push(
    `<text x="${left + plotW / 2}" y="${lowTop + panelH + 32}" text-anchor="middle" class="tick">model parameters (log scale)</text>`,
  );
  // Each size: a dotted line through both panels, its models' labels above, on two alternating rows so that close
  // sizes (3.84B and 3.88B) stay readable.
  const labels = new Map<number, string[]>();
  for (const p of points) {
    const at = labels.get(p.params_b) ?? [];
    if (!at.includes(p.label)) at.push(p.label);
    labels.set(p.params_b, at);
  }
  [...labels].forEach(([b, names], i) => {
    parts.push(
      `<line x1="${fmt(x(b))}" x2="${fmt(x(b))}" y1="${top}" y2="${lowTop + panelH}" stroke="#bbb" stroke-dasharray="2 3"/>`,
      `<text x="${fmt(x(b))}" y="${top - (i % 2 === 0 ? 4 : 17)}" text-anchor="middle" class="tick">${escapeHtml(names.join(" / "))}</text>`,
    );
  });
  const share = (p: ScalePoint) => (p.cites_right.n === 0 ? 0 : p.cites_right.k / p.cites_right.n);
  // Each design stands a fixed step to the side of the true size, so that its marks, whisker and line never hide
  // another design's at the same size; the dotted line marks the size itself. Drawn in layers (lines, whiskers,
  // marks), so that no line or whisker crosses a letter.
  const dx = (design: DesignId) => (designs.indexOf(design) - (designs.length - 1) / 2) * step;
  const lines: string[] = [];
  const whiskers: string[] = [];
  const marks: string[] = [];
  for (const design of designs) {
    const color = colorOf(design);
    const mine = points.filter((p) => p.design === design);
    const at = (p: ScalePoint) => x(p.params_b) + dx(design);
    const line = (y: (p: ScalePoint) => number) =>
      `<polyline fill="none" stroke="${color}" stroke-width="1.5" points="${mine.map((p) => `${fmt(at(p))},${fmt(y(p))}`).join(" ")}"/>`;
    lines.push(
      line((p) => yShare(share(p))),
      line((p) => yTokens(p.tokens_read)),
    );
    for (const p of mine) {
      const c = p.cites_right;
      const tip = `${p.label} (${p.params_b}B), ${DESIGN_LABELS[design]}: cites right ${c.k}/${c.n} (${pct(c.low)}-${pct(c.high)}), ${Math.round(p.tokens_read)} tokens read`;
      const cx = at(p);
      whiskers.push(
        `<line x1="${fmt(cx)}" x2="${fmt(cx)}" y1="${fmt(yShare(c.low))}" y2="${fmt(yShare(c.high))}" stroke="${color}" stroke-width="1.5"/>`,
      );
      marks.push(
        `<g class="scale-mark"><title>${escapeHtml(tip)}</title>` +
          marker(cx, yShare(share(p)), r, color, design) +
          marker(cx, yTokens(p.tokens_read), r, color, design) +
          "</g>",
      );
    }
  }
  parts.push(...lines, ...whiskers, ...marks);
  const legend = designs
    .map((d, i) => {
      const lx = left + (i % 3) * (plotW / 3);
      const cy = lowTop + panelH + 36 + r + Math.floor(i / 3) * (2 * r + 4);
      return `${marker(lx + r, cy, r, colorOf(d), d)}<text x="${lx + 2 * r + 6}" y="${cy + 4}" class="tick">${escapeHtml(DESIGN_LABELS[d])}</text>`;
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(
    "Cites right (strict) and tokens read per design against model parameters",
  )}" class="chart scale-chart">${parts.join("")}${legend}</svg>`;
}

function marker(cx: number, cy: number, r: number, color: string, design: DesignId): string {
  return (
    `<circle cx="${fmt(cx)}" cy="${fmt(cy)}" r="${r}" fill="${color}" stroke="#fff" stroke-width="1"/>` +
    `<text x="${fmt(cx)}" y="${fmt(markBaseline(cy))}" text-anchor="middle" font-size="${MARK_FONT}" class="mark">${escapeHtml(DESIGN_MARKS[design])}</text>`
  );
}

/** 1, 2 and 5 times the powers of ten between lo and hi: 0.5, 1, 2, 5, 10, 20 for lo 0.3, hi 24. */
export function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
    for (const m of [1, 2, 5]) {
      const v = Number((m * 10 ** e).toPrecision(3));
      if (v >= lo && v <= hi) out.push(v);
    }
  return out;
}

/** 1, 2 or 5 times a power of ten, at or above x: round axis ends. */
function niceCeiling(x: number): number {
  const power = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((m) => m * power).find((v) => v >= x)!;
}
