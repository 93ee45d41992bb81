// A suite of the generated tiny models run with --models FILE: each model's size and format reach the manifest, the run
// resumes, and tables.md and the report page (checked in Chromium) carry the scale chart and table, labelled random.
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { readManifest } from "../../src/runs/index.ts";
import { browserSkip, CHROMIUM } from "../helpers/browser.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tinyLlamaPath, tinyModelPath, tinyQwen3Path } from "../helpers/tiny-model.ts";

const BASE = ["--retriever", "bm25", "--max-new-tokens", "24", "--threads", "1", "--no-gpu"];
const RUN = [...BASE, "--limit", "2"];

test("run --models FILE on three tiny models gives the scale chart and table, labelled random weights", {
  timeout: 900_000,
}, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-scale-"));
  // Made-up sizes: the generated models are all a few million parameters.
  const file = path.join(dir, "models.json");
  writeFileSync(
    file,
    JSON.stringify([
      { id: "tiny-qwen2.5", model: await tinyModelPath(), params_b: 0.5, tool_format: "hermes" },
      { id: "tiny-llama3", model: tinyLlamaPath(), params_b: 3 },
      { id: "tiny-qwen3", model: tinyQwen3Path(), params_b: 8, tool_format: "emulated" },
    ]),
  );
  const out = path.join(dir, "run");
  const first = runCli(["run", "--models", file, ...RUN, "--out", out]);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stderr, /3 models: tiny-qwen2\.5 \(0\.5B\), tiny-llama3 \(3B\), tiny-qwen3 \(8B\)/);

  const manifest = readManifest(out)!;
  assert.deepEqual(
    manifest.models.map((m) => [m.entry, m.toolFormat]),
    [
      [{ id: "tiny-qwen2.5", params_b: 0.5, tool_format: "hermes" }, "hermes"],
      [{ id: "tiny-llama3", params_b: 3, tool_format: null }, "llama3"],
      [{ id: "tiny-qwen3", params_b: 8, tool_format: "emulated" }, "emulated"],
    ],
  );
  const tables = readFileSync(path.join(out, "tables.md"), "utf8");
  assert.match(tables, /^> \*\*Random weights\.\*\*/);
  assert.match(tables, /Scale: cites right \(strict\) and tokens read per design, by model size/);
  // Every model and design of the run is a row: 3 models x 4 designs, ordered by size.
  const rows = tables.split("\n").filter((l) => /^\| tiny-(qwen2\.5|llama3|qwen3) \| [\d.]+B \| /.test(l));
  assert.equal(rows.filter((l) => l.split("|").length === 7).length, 12, tables);
  assert.match(tables, /Scale: the workflow against the best agent design at each size/);
  assert.equal(rows.filter((l) => l.split("|").length === 10).length, 3, "one paired test per size");
  const csv = readFileSync(path.join(out, "scale.csv"), "utf8").trim().split("\n");
  assert.equal(
    csv[0],
    "model,label,params_b,design,n,cites_right,cites_right_low,cites_right_high,tokens_read,p_against_workflow",
  );
  assert.equal(csv.length, 13);
  assert.equal(csv.filter((l) => !l.endsWith(",")).length, 1 + 3, "a p-value on each size's best agent row");

  // Resuming the same suite runs nothing again.
  const again = runCli(["run", "--models", file, ...RUN, "--out", out]);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /0 runs done, 24 already logged/);

  const report = runCli(["report", out]);
  assert.equal(report.status, 0, report.stderr);
  const html = readFileSync(path.join(out, "report.html"), "utf8");
  assert.equal((html.match(/<svg[^>]*class="chart scale-chart"/g) ?? []).length, 1);

  await checkInBrowser(out, t);

  // More questions with another format for one model: its new runs are refused, not parsed another way.
  const changed = JSON.parse(readFileSync(file, "utf8"));
  changed[2].tool_format = "hermes";
  writeFileSync(path.join(dir, "changed.json"), JSON.stringify(changed));
  const refused = runCli(["run", "--models", path.join(dir, "changed.json"), ...BASE, "--limit", "3", "--out", out]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /tool-call format emulated before, hermes now/);
});

/** The page in Chromium: one scale chart, labelled random weights, every model on it; a screenshot when asked. */
async function checkInBrowser(out: string, t: TestContext): Promise<void> {
  const skip = browserSkip();
  if (skip !== false) return void t.diagnostic(skip);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(pathToFileURL(path.join(out, "report.html")).href);
    const chart = page.locator("svg.scale-chart");
    assert.equal(await chart.count(), 1);
    const chartText = await chart.textContent();
    assert.match(chartText ?? "", /Random weights: these figures test the harness/);
    for (const label of ["tiny-qwen2.5", "tiny-llama3", "tiny-qwen3"]) assert.ok(chartText?.includes(label), label);
    // Four designs at three sizes, each drawn twice (cites right and tokens read) inside one group per point.
    assert.equal(await chart.locator("g.scale-mark").count(), 12);
    assert.ok((await chart.boundingBox())!.height > 300, "the chart is drawn at a readable size");
    const section = await page.locator("body").innerText();
    assert.match(section, /Scale: the workflow against the best agent design at each size/);
    assert.deepEqual(problems, []);
    if (process.env.BLOGQA_SCREENSHOT) {
      await page.locator("#scale").scrollIntoViewIfNeeded();
      await page.evaluate(() => document.querySelector("#scale")?.scrollIntoView());
      await page.screenshot({ path: process.env.BLOGQA_SCREENSHOT });
    }
  } finally {
    await browser.close();
  }
}
