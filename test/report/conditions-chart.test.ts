// The samples-and-wordings chart, read back from its SVG: a dot per (wording, sample) condition at its strict cites
// right, in its design's band; each design's mean and bootstrap interval; a caption counted from the run; and no
// chart for a run of one condition.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";
import { conditionsChartHtml } from "../../src/report/conditions-chart.ts";
import { repeatTables } from "../../src/report/repeat-tables.ts";
import { modelLabels } from "../../src/report/model-labels.ts";
import { DESIGN_LABELS, DESIGN_MARKS, type DesignId } from "../../src/designs/registry.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { BOOTSTRAP_RESAMPLES, splitQuestionSets } from "../../src/scoring/index.ts";
import { clusteredBootstrap } from "../../src/scoring/repeats.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { num, svgElements, type SvgElement } from "../helpers/svg-elements.ts";

const SLUGS = ["kv-cache-inference", "flashattention-explained"];
const QUESTIONS = ["q1", "q2", "q3", "q4"];
const DESIGNS: readonly DesignId[] = ["workflow", "agent", "workflow-cite-checked"];
/** A wording id as a log could hold it: the page must show it as text. */
const WORDINGS = ["default", 'terse<b>"&'];
const SAMPLES = [0, 1];

/** Which runs cite right: a different count in every condition, so that the dots spread. */
const rightOf = (design: DesignId, wording: number, sample: number, q: number) =>
  q < (DESIGNS.indexOf(design) + wording * 2 + sample) % (QUESTIONS.length + 1);

function records(wordings = WORDINGS, samples = SAMPLES): AnswerRecord[] {
  return DESIGNS.flatMap((design) =>
    wordings.flatMap((wording, w) =>
      samples.flatMap((sample) =>
        QUESTIONS.map((q, i) => ({
          ...makeRecord({
            design,
            question_id: q,
            answer: `Answer.\nSource: ${rightOf(design, w, sample, i) ? SLUGS[0] : SLUGS[1]}`,
          }),
          ...(wording === "default" ? {} : { wording }),
          ...(sample === 0 ? {} : { sample }),
        })),
      ),
    ),
  );
}

function chartOf(recs: readonly AnswerRecord[]): string {
  const label = modelLabels(recs.map((r) => r.model));
  const tables = repeatTables(splitQuestionSets(recs).onePost, SLUGS, label)!;
  return conditionsChartHtml(tables, label);
}

/** The chart's y scale, read from its grid lines and their tick labels: share -> px. */
function yScale(els: readonly SvgElement[]): (share: number) => number {
  const grid = els.filter((e) => e.attrs.class === "grid");
  const ticks = els.filter((e) => e.attrs.class === "tick y-tick");
  const [a, b] = [0, ticks.length - 1].map((i) => ({
    v: Number(ticks[i]!.text.replace("%", "")) / 100,
    px: num(grid[i]!, "y1"),
  }));
  return (s) => a!.px + ((s - a!.v) * (b!.px - a!.px)) / (b!.v - a!.v);
}

test("every condition is a dot at its cites right, in its design's band, in wording then sample order", () => {
  const html = chartOf(records());
  const els = svgElements(html.slice(html.indexOf("<svg"), html.indexOf("</svg>") + 6));
  const y = yScale(els);
  const ticks = els.filter((e) => e.attrs.class === "tick design-tick");
  assert.deepEqual(
    ticks.map((t) => t.text),
    DESIGNS.map((d) => DESIGN_MARKS[d]),
  );
  const dots = els.filter((e) => e.attrs.class === "condition");
  assert.equal(dots.length, DESIGNS.length * WORDINGS.length * SAMPLES.length);
  for (const [d, design] of DESIGNS.entries()) {
    const mine = dots.filter((e) => e.attrs["data-design"] === design);
    const order = WORDINGS.flatMap((w) => SAMPLES.map((s) => [w, String(s)]));
    assert.deepEqual(
      mine.map((e) => [e.attrs["data-wording"], e.attrs["data-sample"]]),
      order,
    );
    for (const dot of mine) {
      const [w, s] = [WORDINGS.indexOf(dot.attrs["data-wording"]!), Number(dot.attrs["data-sample"])];
      const right = QUESTIONS.filter((_, q) => rightOf(design, w, s, q)).length;
      assert.ok(Math.abs(num(dot, "cy") - y(right / QUESTIONS.length)) <= 0.5, `${design} ${w} ${s}`);
      // Nearer its own design's letter than any other's.
      const nearest = ticks.reduce((a, b) =>
        Math.abs(num(b, "x") - num(dot, "cx")) < Math.abs(num(a, "x") - num(dot, "cx")) ? b : a,
      );
      assert.equal(nearest, ticks[d]);
    }
    // Dots in order left to right, none on another.
    const xs = mine.map((e) => num(e, "cx"));
    for (const [i, x] of xs.slice(1).entries()) assert.ok(x - xs[i]! >= 2 * num(mine[0]!, "r"));
  }
});

test("each design's mean bar and whisker: its per-question rates' mean and bootstrap interval, whiskers first", () => {
  const html = chartOf(records());
  const els = svgElements(html.slice(html.indexOf("<svg"), html.indexOf("</svg>") + 6));
  const y = yScale(els);
  const whiskers = els.filter((e) => e.groups.includes("whisker") && e.tag === "line");
  const marks = els.filter((e) => e.attrs.class === "condition" || e.attrs.class === "mean");
  assert.ok(Math.max(...whiskers.map((e) => e.index)) < Math.min(...marks.map((e) => e.index)));
  for (const design of DESIGNS) {
    // Each question's rate over its four conditions.
    const rates = QUESTIONS.map(
      (_, q) =>
        WORDINGS.flatMap((_, w) => SAMPLES.map((s) => rightOf(design, w, s, q))).filter(Boolean).length /
        (WORDINGS.length * SAMPLES.length),
    );
    const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
    const interval = clusteredBootstrap(rates);
    const bar = els.find((e) => e.attrs.class === "mean" && e.attrs["data-design"] === design)!;
    assert.ok(Math.abs(num(bar, "y1") - y(mean)) <= 0.5, `${design} mean`);
    const stem = whiskers.find(
      (e) =>
        e.groups.includes("whisker") &&
        e.attrs.x1 === e.attrs.x2 &&
        Math.abs(num(e, "x1") - (num(bar, "x1") + num(bar, "x2")) / 2) < 0.1,
    )!;
    const ends = [num(stem, "y1"), num(stem, "y2")].sort((a, b) => a - b);
    assert.ok(Math.abs(ends[0]! - y(interval.high)) <= 0.5 && Math.abs(ends[1]! - y(interval.low)) <= 0.5, design);
  }
});

test("the caption counts the run's conditions, wordings, samples and questions, and names the bootstrap", () => {
  const html = chartOf(records());
  const caption = /<p class="caption">([^<]*)<\/p>/.exec(html)![1]!;
  const n = WORDINGS.length * SAMPLES.length;
  assert.ok(
    caption.startsWith(
      `Each dot: one of the ${n} (wording, sample) conditions (${WORDINGS.length} wordings x ${SAMPLES.length} samples), strict cites right of one pass over its ${QUESTIONS.length} questions`,
    ),
    caption,
  );
  assert.ok(caption.includes(`a bootstrap over questions (${BOOTSTRAP_RESAMPLES} resamples of the questions`));
  for (const d of DESIGNS) assert.ok(caption.includes(`${DESIGN_MARKS[d]} = ${DESIGN_LABELS[d]}`));
  // The wording ids are in the key, as text.
  assert.ok(html.includes("wording terse&lt;b&gt;&quot;&amp;"));
  assert.ok(!html.includes("<b>"));
});

test("a run of one condition gets no chart; the page keeps the sentence and the tables with the chart", () => {
  const page = (recs: readonly AnswerRecord[]) =>
    renderReportHtml(reportPage("t", { records: recs, slugs: SLUGS, context: { sections: 3 }, slugsFrom: "the blog" }));
  // One wording other than the default, one sample: the section's tables, but a single condition to show.
  const one = page(records(["terse"], [0]));
  assert.match(one, /<h2>Samples and wordings<\/h2>/);
  assert.match(one, /Each \(wording, sample\) condition \(beyond the study\)/);
  assert.doesNotMatch(one, /conditions-chart/);
  const many = page(records());
  assert.equal(many.match(/<svg[^>]*class="chart conditions-chart"/g)?.length, 1);
  assert.match(many, /the workflow cited right more often than agent loop in \d+ of 4 \(wording, sample\) conditions/);
  assert.match(many, /Each \(wording, sample\) condition \(beyond the study\)/);
  assert.doesNotMatch(page(records(["default"], [0])), /Samples and wordings|conditions-chart/);
});
