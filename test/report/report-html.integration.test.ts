// The report page as text (no browser): escaping, self-containment, and the compare command's output.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { jsonForScript } from "../../src/report/html-escape.ts";
import { reportPage } from "../../src/report/report-data.ts";
import { renderReportHtml } from "../../src/report/html.ts";
import { readAnswerLog } from "../../src/runs/index.ts";
import { runCli } from "../helpers/run-cli.ts";
import { FIXTURE_SLUGS, INJECTION, writeReportFixture } from "../helpers/report-fixture.ts";

test("JSON for a script block cannot close it, and parses back to the same value", () => {
  const value = { reply: "</script><script>alert(1)</script><!-- \u2028 & done" };
  const text = jsonForScript(value);
  assert.ok(!text.includes("<"));
  assert.deepEqual(JSON.parse(text), value);
});

test("the page holds exactly its own two scripts, no markup from the data, and nothing from the network", () => {
  const { dir } = writeReportFixture();
  const { records } = readAnswerLog(path.join(dir, "answers.jsonl"));
  const html = renderReportHtml(
    reportPage("t", { records, slugs: FIXTURE_SLUGS, context: { sections: 6 }, slugsFrom: "fixture" }),
  );
  assert.equal(html.match(/<script/g)?.length, 2);
  assert.equal(html.match(/<\/script>/g)?.length, 2);
  assert.ok(!/<img|<i>|<b>/.test(html), "no element from the data");
  assert.ok(!/(src|href)="?https?:/.test(html), "no network URL");
  assert.ok(
    html.includes("evil&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;"),
    "model name escaped in server-rendered HTML",
  );
  // The transcript data round-trips through the block.
  const json = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html)![1]!;
  const data = JSON.parse(json);
  assert.ok(data.runs.some((r: { answer: string }) => r.answer === INJECTION));
  assert.match(html, /Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-/);
  assert.match(
    html,
    /<\/table><\/div><p class="note">Slugs inside longer words \(beyond the study\)[^<]*<\/p><p class="note">Ignored call blocks \(beyond the study\): &lt;tool_call&gt; tags/,
    "the strict table's notes, escaped",
  );
});

test("compare prints the paired comparisons, as a table and as JSON", () => {
  const { dir } = writeReportFixture();
  const content = path.join(dir, "content");
  const text = runCli(["compare", dir, "--content", content]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /small: each agent design against "one retrieval, one answer"/);
  // small, cites right: workflow right on q01 and q02; agent-forced right on q01 only -> workflow only on q02, p = 1.
  assert.ok(
    text.stdout.includes(
      "| agent, first call forced | cites right (strict) | 2/3 (67%, 21-94%) | 1/3 (33%, 6-79%) | 1.000 | q02 | - |",
    ),
    text.stdout,
  );
  const json = runCli(["compare", path.join(dir, "answers.jsonl"), "--content", content, "--json"]);
  assert.equal(json.status, 0, json.stderr);
  const rows = JSON.parse(json.stdout).comparisons;
  assert.equal(
    rows.length,
    2 * 3 * 2 + 4 * 2,
    "per model three agent designs x two measures, then four designs x two measures across the models",
  );
  assert.deepEqual(Object.keys(rows[0]).sort(), [
    "a",
    "a_only",
    "across",
    "b",
    "b_only",
    "measure",
    "p",
    "set",
    "unpaired",
  ]);
});

test("report and compare say clearly when there is nothing to read", () => {
  const missing = runCli(["report", "/nonexistent-run-folder"]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /blogqa: \/nonexistent-run-folder: no such file or folder/);
  const { dir } = writeReportFixture();
  const noLog = runCli(["compare", path.join(dir, "content")]);
  assert.equal(noLog.status, 1);
  assert.match(noLog.stderr, /no answers\.jsonl here/);
  assert.ok(readFileSync(path.join(dir, "answers.jsonl"), "utf8").length > 0);
});
