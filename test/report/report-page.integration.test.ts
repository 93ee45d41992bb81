// The report page in a real browser (Chromium through playwright-core): it renders offline, the transcript browser
// shows a chosen run, and text from the model that tries to inject script shows as text and runs nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { modelLabels } from "../../src/report/index.ts";
import { browserSkip, CHROMIUM } from "../helpers/browser.ts";
import { runCli } from "../helpers/run-cli.ts";
import { EVIL_MODEL, INJECTION, writeReportFixture } from "../helpers/report-fixture.ts";
import { tinyRun } from "../helpers/tiny-run.ts";
import { readFileSync, writeFileSync } from "node:fs";

const skip = browserSkip();

async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

test("the report page works offline, shows a chosen transcript, and runs no injected script", {
  skip,
  timeout: 120_000,
}, async () => {
  const { dir } = writeReportFixture();
  const cli = runCli(["report", dir, "--content", path.join(dir, "content")]);
  assert.equal(cli.status, 0, cli.stderr);
  const file = path.join(dir, "report.html");
  assert.equal(cli.stdout.trim(), file);

  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const problems: string[] = [];
    const requests: string[] = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);

    // Server-rendered parts: both charts, the tables, the hostile model name as literal text.
    assert.equal(await page.locator("svg.chart").count(), 2);
    assert.ok((await page.locator("table").count()) >= 4);
    assert.ok(
      (await page.locator("body").innerText()).includes(`${modelLabels([EVIL_MODEL])(EVIL_MODEL)}, greedy`),
      "the model name shows literally",
    );

    // Pick the run whose reply holds the injection.
    await page.selectOption("#pick-model", "small.gguf");
    await page.selectOption("#pick-design", "agent-forced");
    await page.selectOption("#pick-question", "q01");
    const view = page.locator("#transcript");
    const text = await view.innerText();
    assert.ok(text.includes("q01: What happens in prefill? <i>really</i>"), "the question, markup and all, as text");
    assert.equal(await view.locator(".answer pre").innerText(), INJECTION);
    assert.ok(
      text.includes("one real post: kv-cache-inference, the right one; the run's tools had shown it"),
      "the source line's class and why",
    );
    assert.equal(await view.locator("section.call").count(), 2);
    assert.equal(await view.locator(".tool-call").count(), 2);
    assert.equal(await view.locator(".tool-call.malformed").count(), 1);
    assert.ok(
      text.includes(`"snippet": "Prefill processes the prompt </script><b>bold</b>"`),
      "a tool result with markup, as text",
    );
    // Every call's prompt is there, one click away.
    await view.locator("details.prompt summary").nth(1).click();
    assert.equal(await view.locator("details.prompt").nth(1).locator(".message").count(), 5);
    assert.ok(
      (await view.locator("details.prompt").nth(1).innerText()).includes(
        "You answer questions about a technical blog, using its tools.",
      ),
    );

    // Nothing from the data became an element, and nothing ran.
    assert.equal(await view.locator("script, img, i, b").count(), 0);
    assert.equal(await page.locator("body img").count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);

    // Switching design keeps the question and shows that run.
    await page.selectOption("#pick-design", "workflow");
    assert.equal(await page.locator("#pick-question").inputValue(), "q01");
    assert.ok((await view.innerText()).includes("The workflow's search: 1 hits"));

    assert.deepEqual(problems, []);
    assert.deepEqual(
      requests.filter((u) => !u.startsWith("file:")),
      [],
      "no network requests",
    );
  } finally {
    await browser.close();
  }
});

test("the report of a real tiny-model run, one reply swapped for an injection, renders and runs nothing", {
  skip,
  timeout: 300_000,
}, async () => {
  const { dir } = await tinyRun({ questions: 2, designs: ["workflow", "agent", "agent-forced"] });
  // As if the model had written it: the last call's reply and the answer of the first agent run.
  const file = path.join(dir, "answers.jsonl");
  const lines = readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  const target = lines.find((l) => l.design === "agent");
  target.answer = INJECTION;
  target.transcript.answer = INJECTION;
  target.transcript.calls.at(-1).reply = INJECTION;
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  // No --content: the slugs come from the run's manifest.json.
  const cli = runCli(["report", dir]);
  assert.equal(cli.status, 0, cli.stderr);

  const browser = await launch();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(pathToFileURL(path.join(dir, "report.html")).href);
    assert.match(await page.locator("body").innerText(), /15 sections; 2 questions; tiny-seed1, greedy/);
    assert.match(
      await page.locator(".manifest").innerText(),
      /tiny-seed1\.gguf \([\d,]+ bytes, sha256 [0-9a-f]{64}\); qwen2; chat template sha256/,
    );
    await page.selectOption("#pick-design", "agent");
    await page.selectOption("#pick-question", target.question_id);
    const view = page.locator("#transcript");
    assert.equal(await view.locator(".answer pre").innerText(), INJECTION);
    // The last reply is the answer, printed once, above.
    assert.equal(await view.locator(".same-as-answer").count(), 1);
    // Scored against the manifest's slugs (the fixture blog's), where kv-cache-inference is no post.
    assert.ok(
      (await view.innerText()).includes(
        'placeholder or invented: the text after the last "Source:" ("kv-cache-inference") names no post of the blog',
      ),
    );
    assert.equal(await page.locator("body img, #transcript script").count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    // A real transcript from the model: every call is listed with its token counts.
    await page.selectOption("#pick-design", "agent-forced");
    assert.ok((await view.locator("section.call").count()) >= 1);
    assert.match(await view.locator("section.call h4").first().innerText(), /Call 1: \d+ tokens read/);
    assert.equal(await view.locator(".prefix pre").first().textContent(), "<tool_call>\n");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
