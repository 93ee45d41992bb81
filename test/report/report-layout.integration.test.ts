// The report page's layout in Chromium at a wide (1400 px) and a narrow (800 px) window: chart labels that never
// overlap and hold their letters, axis titles, numbers and intervals never broken across lines, the width of a wide
// screen used, the answer shown once, and a run on random weights labelled at the top; the samples chart likewise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { chromium, type Page } from "playwright-core";
import { writeReport } from "../../src/report/index.ts";
import { tinyModelName } from "../../src/test-models/gguf/make-tiny-model.ts";
import { browserSkip, CHROMIUM } from "../helpers/browser.ts";
import { runWithManifest, runWithSamples } from "../helpers/report-fixture.ts";

const skip = browserSkip();

/** Opens the page in Chromium at 1400 px, then at 800 px, and runs `check` on each. */
async function atEachWidth(file: string, check: (page: Page, width: number) => Promise<void>): Promise<void> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    for (const width of [1400, 800]) {
      const page = await browser.newPage({ viewport: { width, height: 1000 } });
      await page.goto(pathToFileURL(file).href);
      await check(page, width);
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

/** Texts that overlap another, as "A / B": within each chart (as drawn) and within each chart's key. */
function overlappingTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const groups = [
      ...[...document.querySelectorAll("svg.chart")].map((c) => [...c.querySelectorAll("text")]),
      ...[...document.querySelectorAll(".chart-key")].map((k) => [...k.querySelectorAll(".key-entry")]),
    ];
    for (const items of groups) {
      const boxes = items.map((t) => ({ text: t.textContent ?? "", box: t.getBoundingClientRect() }));
      for (const [i, a] of boxes.entries())
        for (const b of boxes.slice(i + 1)) {
          const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
          const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
          if (w > 0.5 && h > 0.5) out.push(`${a.text} / ${b.text}`);
        }
    }
    return out;
  });
}

test("the report page at 1400 px and 800 px", { skip, timeout: 120_000 }, async () => {
  // Both fixture models have designs at 0 right with about the same tokens: their markers would fall on one spot.
  const dir = await runWithManifest([tinyModelName("random", "tiny", 1), tinyModelName("random", "tiny", 2)]);
  const file = await writeReport(dir);
  await atEachWidth(file, async (page, width) => {
    // Random weights, said before anything else.
    const first = await page.evaluate(() => document.querySelector("h1")?.nextElementSibling?.textContent ?? "");
    assert.match(first, /^Random weights\. This run used blogqa's generated models with random weights/);

    // The cost chart's labels, in its own units: no two overlap, and each letter's ink, measured in the font
    // it is drawn in, lies inside its circle.
    const labels = await page.$$eval("g.design-mark", (gs) =>
      gs.map((g) => {
        const c = g.querySelector("circle")!;
        const t = g.querySelector("text")!;
        const style = getComputedStyle(t);
        const ctx = document.createElement("canvas").getContext("2d")!;
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        ctx.textAlign = "center";
        const ink = ctx.measureText(t.textContent ?? "");
        const [x, y] = [Number(t.getAttribute("x")), Number(t.getAttribute("y"))];
        return {
          text: t.textContent,
          cx: Number(c.getAttribute("cx")),
          cy: Number(c.getAttribute("cy")),
          r: Number(c.getAttribute("r")),
          corners: [
            [x - ink.actualBoundingBoxLeft, y - ink.actualBoundingBoxAscent],
            [x + ink.actualBoundingBoxRight, y - ink.actualBoundingBoxAscent],
            [x - ink.actualBoundingBoxLeft, y + ink.actualBoundingBoxDescent],
            [x + ink.actualBoundingBoxRight, y + ink.actualBoundingBoxDescent],
          ],
        };
      }),
    );
    assert.equal(labels.length, 8);
    for (const [i, a] of labels.entries()) {
      for (const [x, y] of a.corners)
        assert.ok(Math.hypot(x! - a.cx, y! - a.cy) <= a.r, `"${a.text}" spills out of its circle at ${width} px`);
      for (const b of labels.slice(i + 1))
        assert.ok(Math.hypot(a.cx - b.cx, a.cy - b.cy) >= a.r + b.r, `labels overlap at ${width} px`);
    }
    assert.deepEqual(await page.$$eval(".axis-title", (ts) => ts.map((t) => t.textContent)), [
      "share of questions",
      "cites right (strict), share of questions",
    ]);
    assert.deepEqual(await overlappingTexts(page), [], `at ${width} px`);

    // Every number, interval and p value sits on one line: a text node that wrapped has several client rects.
    const broken = await page.$$eval("td:not(.wrap)", (cells) =>
      cells
        .filter((td) => {
          const range = document.createRange();
          range.selectNodeContents(td);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
        })
        .map((td) => td.textContent),
    );
    assert.deepEqual(broken, []);

    // A wide window is used, less the page's margins; a narrow one scrolls no table out of the page.
    const bodyWidth = await page.evaluate(() => document.body.getBoundingClientRect().width);
    assert.ok(bodyWidth >= width - 40, `body ${bodyWidth} px in a ${width} px window`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);

    // The workflow's answer is printed once: its one call's reply points to it.
    await page.selectOption("#pick-model", "small.gguf");
    await page.selectOption("#pick-design", "workflow");
    await page.selectOption("#pick-question", "q01");
    const view = page.locator("#transcript");
    assert.equal(await view.locator(".answer pre").count(), 1);
    assert.equal(await view.locator(".reply pre").count(), 0);
    assert.equal(await view.locator(".same-as-answer").count(), 1);
  });
});

test("the samples chart at 1400 px and 800 px: inside the page, no text over another", {
  skip,
  timeout: 120_000,
}, async () => {
  const file = await writeReport(await runWithSamples());
  await atEachWidth(file, async (page, width) => {
    const chart = page.locator("svg.conditions-chart");
    assert.equal(await chart.count(), 1);
    // One panel per model, a dot per design and condition (two samples), one bar per design.
    assert.equal(await chart.locator(".panel-title").count(), 2);
    assert.equal(await chart.locator("circle.condition").count(), 2 * 4 * 2);
    assert.equal(await chart.locator("line.mean").count(), 2 * 4);
    const box = (await chart.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= width, `the chart within the ${width} px window`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
    assert.deepEqual(await overlappingTexts(page), [], `at ${width} px`);
  });
});
