// The cost chart's SVG, read back: every dot exactly at its values even where points collide, each letter inside
// its circle, whiskers beneath everything else, no two labels overlapping, and leader lines to labels moved aside.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DESIGN_IDS, DESIGN_MARKS, type DesignId } from "../../src/designs/registry.ts";
import { costChart } from "../../src/report/cost-chart.ts";
import { modelLabels } from "../../src/report/model-labels.ts";
import { niceTicks } from "../../src/report/chart-parts.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { strictRows, studyRows } from "../../src/scoring/index.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { num, svgElements, type SvgElement } from "../helpers/svg-elements.ts";

const SLUGS = ["kv-cache-inference", "flashattention-explained"];
const MODELS = ["small.gguf", 'odd"<name>&.gguf'];
const QUESTIONS = ["q1", "q2", "q3", "q4"];
/** Most designs read about the same tokens and cite right as often, so that their points fall on one spot. */
const tokensOf = (model: string, design: DesignId) =>
  (DESIGN_IDS.indexOf(design) % 2 === 0 ? 400 : 404) + (model === MODELS[0] ? 0 : 2);
const rightOf = (design: DesignId, q: string) => QUESTIONS.indexOf(q) < (design === "workflow" ? 2 : 1);

function records(): AnswerRecord[] {
  return MODELS.flatMap((model) =>
    DESIGN_IDS.flatMap((design) =>
      QUESTIONS.map((q) =>
        makeRecord({
          model,
          design,
          question_id: q,
          tokens_read: tokensOf(model, design),
          answer: `Answer.\nSource: ${rightOf(design, q) ? SLUGS[0] : SLUGS[1]}`,
        }),
      ),
    ),
  );
}

/** Glyph-size estimates for bold capitals: the widest (W) is 1.1 em wide, capitals 0.75 em tall. */
const GLYPH_EM = 1.1;
const CAP_EM = 0.75;

/** The chart's own scale, read from its tick labels: value -> px, a line through the first and last tick. */
function scale(ticks: readonly { value: number; px: number }[]): (v: number) => number {
  const [a, b] = [ticks[0]!, ticks.at(-1)!];
  return (v) => a.px + ((v - a.value) * (b.px - a.px)) / (b.value - a.value);
}

function chart() {
  const recs = records();
  const els = svgElements(costChart(studyRows(recs), strictRows(recs, SLUGS), modelLabels(recs.map((r) => r.model))));
  const xTicks = els
    .filter((e) => e.attrs.class === "tick x-tick")
    .map((e) => ({ value: Number(e.text.replace(/,/g, "")), px: num(e, "x") }));
  const grid = els.filter((e) => e.attrs.class === "grid");
  const yTicks = els
    .filter((e) => e.attrs.class === "tick y-tick")
    .map((e, i) => ({ value: Number(e.text.replace("%", "")) / 100, px: num(grid[i]!, "y1") }));
  assert.ok(xTicks.length >= 2);
  assert.equal(yTicks.length, 5);
  const dots = els.filter((e) => e.tag === "circle" && e.attrs.class === "value");
  const labels = els
    .filter((e) => e.tag === "g" && e.attrs.class === "design-mark")
    .map((g) => {
      const inside = els.slice(g.index + 1, g.index + 4);
      return { g, circle: inside.find((e) => e.tag === "circle")!, text: inside.find((e) => e.tag === "text")! };
    });
  return { els, x: scale(xTicks), y: scale(yTicks), dots, labels };
}

const centre = (e: SvgElement) => ({ x: num(e, "cx"), y: num(e, "cy") });

test("every dot sits exactly at its tokens read and its cites right, though the points collide", () => {
  const { x, y, dots, labels } = chart();
  assert.equal(dots.length, MODELS.length * DESIGN_IDS.length);
  const r = num(labels[0]!.circle, "r");
  for (const dot of dots) {
    const design = dot.attrs["data-design"] as DesignId;
    const model = dot.attrs["data-model"]!;
    assert.ok(MODELS.includes(model), `the model's name, escaped and read back: ${model}`);
    const share = QUESTIONS.filter((q) => rightOf(design, q)).length / QUESTIONS.length;
    assert.ok(Math.abs(num(dot, "cx") - x(tokensOf(model, design))) <= 0.5, `${model} ${design} x`);
    assert.ok(Math.abs(num(dot, "cy") - y(share)) <= 0.5, `${model} ${design} y`);
  }
  // The points do collide: a label on every point could not avoid another.
  const crowded = dots.filter((a) =>
    dots.some((b) => a !== b && Math.hypot(centre(a).x - centre(b).x, centre(a).y - centre(b).y) < 2 * r),
  );
  assert.ok(crowded.length >= dots.length / 2, `${crowded.length} crowded points`);
});

test("each letter fits inside its circle, two-letter marks included, and no two labels overlap", () => {
  const { labels } = chart();
  assert.ok(labels.some((l) => l.text.text === DESIGN_MARKS["workflow-cite-checked"] && l.text.text.length === 2));
  for (const { circle, text } of labels) {
    const font = num(text, "font-size");
    const [w, h] = [text.text.length * GLYPH_EM * font, CAP_EM * font];
    assert.equal(text.attrs["text-anchor"], "middle");
    const [left, right, top, bottom] = [
      num(text, "x") - w / 2,
      num(text, "x") + w / 2,
      num(text, "y") - h,
      num(text, "y"),
    ];
    for (const [cx, cy] of [
      [left, top],
      [right, top],
      [left, bottom],
      [right, bottom],
    ])
      assert.ok(
        Math.hypot(cx! - num(circle, "cx"), cy! - num(circle, "cy")) <= num(circle, "r"),
        `"${text.text}" spills out of its circle`,
      );
  }
  for (const [i, a] of labels.entries())
    for (const b of labels.slice(i + 1)) {
      const d = Math.hypot(num(a.circle, "cx") - num(b.circle, "cx"), num(a.circle, "cy") - num(b.circle, "cy"));
      assert.ok(d >= num(a.circle, "r") + num(b.circle, "r"), `labels ${a.text.text} and ${b.text.text} overlap`);
    }
});

test("whiskers come first, then leaders, dots and labels; a moved label's leader runs from its dot to its edge", () => {
  const { els, dots, labels } = chart();
  const inGroup = (name: string) => els.filter((e) => e.groups.includes(name) && e.tag !== "g");
  const [whiskers, leaders] = [inGroup("whisker"), els.filter((e) => e.attrs.class === "leader")];
  assert.equal(whiskers.filter((e) => e.tag === "line").length, 3 * dots.length, "a stem and two caps each");
  const firstMark = Math.min(...dots.map((d) => d.index), ...labels.map((l) => l.g.index));
  assert.ok(Math.max(...whiskers.map((e) => e.index)) < firstMark, "every whisker before every mark");
  assert.ok(Math.max(...leaders.map((e) => e.index)) < firstMark, "every leader before every mark");
  const moved = labels.filter(
    (l, i) => num(l.circle, "cx") !== num(dots[i]!, "cx") || num(l.circle, "cy") !== num(dots[i]!, "cy"),
  );
  assert.ok(moved.length > 0);
  assert.equal(leaders.length, moved.length);
  for (const [i, l] of labels.entries()) {
    if (!moved.includes(l)) continue;
    const dot = centre(dots[i]!);
    const same = (e: SvgElement) => ["data-model", "data-design"].every((k) => e.attrs[k] === l.g.attrs[k]);
    const leader = leaders.find((e) => same(e) && num(e, "x1") === dot.x && num(e, "y1") === dot.y);
    assert.ok(leader !== undefined, `a leader from ${l.text.text}'s dot`);
    const end = Math.hypot(num(leader, "x2") - num(l.circle, "cx"), num(leader, "y2") - num(l.circle, "cy"));
    assert.ok(Math.abs(end - num(l.circle, "r")) <= 0.2, "the leader stops at the label's edge");
  }
});

test("the token axis ends at the first round tick at or above the largest value", () => {
  assert.deepEqual(niceTicks(1030), [0, 250, 500, 750, 1000, 1250]);
  assert.deepEqual(niceTicks(400), [0, 100, 200, 300, 400]);
  for (const max of [1, 7, 281, 4999, 12345]) {
    const ticks = niceTicks(max);
    assert.ok(ticks.at(-1)! >= max && ticks.at(-2)! < max, `${max}: ${ticks}`);
    assert.ok(ticks.length <= 6);
  }
});
