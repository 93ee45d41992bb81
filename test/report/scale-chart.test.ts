// The scale chart's SVG from hand-made points: every point drawn in both panels, log ticks, and no markup from labels.
import { test } from "node:test";
import assert from "node:assert/strict";
import { wilson, type ScalePoint } from "../../src/scoring/index.ts";
import { logTicks, scaleChart } from "../../src/report/scale-chart.ts";
import { scaleGrids } from "../../src/report/scale-tables.ts";
import { num, svgElements } from "../helpers/svg-elements.ts";

const EVIL = '<script>alert("x")</script>&';
const point = (label: string, params_b: number, design: ScalePoint["design"], k: number): ScalePoint => ({
  model: `${label}.gguf`,
  label,
  params_b,
  design,
  cites_right: wilson(k, 10),
  tokens_read: 400 + k * 100,
});
const points = [point("small", 0.5, "workflow", 6), point("small", 0.5, "agent", 1), point(EVIL, 7, "workflow", 8)];
points.push(point(EVIL, 7, "agent", 9));

test("each point is one group with its whisker and a marker in each panel; labels and notes are escaped", () => {
  const svg = scaleChart(points, 'Random weights <b>"here"</b>');
  assert.equal((svg.match(/<g class="scale-mark">/g) ?? []).length, 4);
  assert.equal((svg.match(/<circle /g) ?? []).length, 4 * 2 + 2, "two markers per point, one per design in the key");
  assert.ok(!svg.includes("<script>") && !svg.includes("<b>"), "nothing from a label or note becomes markup");
  assert.ok(svg.includes("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;"));
  assert.ok(svg.includes("Random weights &lt;b&gt;&quot;here&quot;&lt;/b&gt;"));
  assert.ok(!scaleChart(points).includes("Random weights"), "no note unless given");
});

test("log ticks are 1, 2 and 5 times powers of ten inside the range", () => {
  assert.deepEqual(logTicks(0.3, 24), [0.5, 1, 2, 5, 10, 20]);
  assert.deepEqual(logTicks(0.3125, 11.2), [0.5, 1, 2, 5, 10]);
});

test("the table grids carry the label as text, to be escaped where they are printed", () => {
  const [perDesign, tests] = scaleGrids({ points, tests: [] });
  assert.deepEqual(perDesign!.rows[2], [EVIL, "7B", "one retrieval, one answer", "8/10 (80%, 49-94%)", "1,200"]);
  assert.deepEqual(tests!.rows, []);
});

test("two models of one size share its line, labelled with both names", () => {
  const svg = scaleChart([point("a", 3, "workflow", 5), point("b", 3, "workflow", 6), point("c", 7, "workflow", 7)]);
  assert.ok(svg.includes(">a / b</text>"));
  assert.equal((svg.match(/stroke-dasharray/g) ?? []).length, 2, "one dotted line per size");
});

test("lines and whiskers are drawn beneath every mark, and each letter fits inside its circle, WC included", () => {
  const designs = ["workflow", "agent", "workflow-cite-checked", "agent-constrained"] as const;
  const els = svgElements(scaleChart(designs.flatMap((d, i) => [point("a", 1, d, i), point("b", 7, d, 9 - i)])));
  const under = els.filter((e) => e.tag === "polyline" || (e.tag === "line" && !e.attrs.class));
  const marks = els.filter((e) => e.attrs.class === "scale-mark");
  assert.equal(marks.length, 2 * designs.length);
  assert.ok(Math.max(...under.map((e) => e.index)) < Math.min(...marks.map((e) => e.index)));
  const texts = els.filter((e) => e.attrs.class === "mark");
  assert.ok(texts.some((t) => t.text === "WC"));
  for (const t of texts) {
    const circle = els[t.index - 1]!;
    // Bold capitals: at most 1.1 em wide each, 0.75 em tall, centred on the text's x, standing on its baseline.
    const [w, h] = [t.text.length * 1.1 * num(t, "font-size"), 0.75 * num(t, "font-size")];
    for (const [x, y] of [
      [num(t, "x") - w / 2, num(t, "y") - h],
      [num(t, "x") + w / 2, num(t, "y")],
    ])
      assert.ok(Math.hypot(x! - num(circle, "cx"), y! - num(circle, "cy")) <= num(circle, "r"), t.text);
  }
});
