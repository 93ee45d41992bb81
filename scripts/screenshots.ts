// The report page's screenshots in docs/, made from a run like a user's: the smoke study with two samples (so that
// the samples chart shows) on the generated tiny model over the project's own blog, `blogqa report` on it, then the
// page in Chromium at 1400 and 800 px wide (whole page), and its transcript browser at 1100 px on a run that
// called a tool. pngquant, where installed (apt-get install pngquant), shrinks the PNGs.
//
//   npm run screenshots                 runs the smoke study into $BLOGQA_CACHE/screenshots/smoke (.cache/...)
//   npm run screenshots -- --run DIR    reports on the run folder DIR instead of running the study again
//   npm run screenshots -- --out DIR    writes the PNGs into DIR instead of docs/
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const { values } = parseArgs({ options: { run: { type: "string" }, out: { type: "string", default: "docs" } } });
const cache = process.env.BLOGQA_CACHE ?? ".cache";

/** Shrinks a PNG in place with pngquant, where it is installed. */
function shrink(file: string): void {
  if (spawnSync("pngquant", ["--version"]).status !== 0) return;
  spawnSync("pngquant", ["--force", "--skip-if-larger", "--speed", "1", "--quality", "70-95", "--output", file, file]);
}

function blogqa(args: readonly string[]): void {
  console.error(`blogqa ${args.join(" ")}`);
  const result = spawnSync(process.execPath, ["bin/blogqa.cjs", ...args], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} not found: apt-get install -y chromium`);
  process.exit(1);
}
const run = values.run ?? path.join(cache, "screenshots", "smoke");
if (values.run === undefined) blogqa(["smoke", "--samples", "2", "--out", run]);
blogqa(["report", run]);

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
try {
  const url = pathToFileURL(path.join(run, "report.html")).href;
  for (const width of [1400, 800]) {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    await page.goto(url);
    const file = path.join(values.out, `report-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    shrink(file);
    console.error(file);
    await page.close();
  }
  // The transcript browser at the top of the view, showing the first question's run of the agent whose first call
  // is constrained to a search: its call, the search's result and the answer.
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(url);
  await page.selectOption("#pick-design", "agent-constrained");
  await page.evaluate(() =>
    [...document.querySelectorAll("h2")].find((h) => h.textContent === "Transcripts")?.scrollIntoView(),
  );
  const file = path.join(values.out, "report.png");
  await page.screenshot({ path: file });
  shrink(file);
  console.error(file);
} finally {
  await browser.close();
}
