// The report page: one self-contained HTML file (inline CSS, SVG and script; no network) built from a run folder.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { escapeHtml, jsonForScript } from "./html-escape.ts";
import { ENGINEERING_TITLE } from "./engineering-tables.ts";
import { AGENTS_TITLE, agentsGrid } from "./agents-table.ts";
import { tableSectionHtml } from "./key-fact-tables.ts";
import { withheldComparison, withheldNote } from "./withholding-tables.ts";
import { TABLES } from "./table-list.ts";
import { tableInputs } from "./table-inputs.ts";
import { REPORT_FILE } from "./derived-files.ts";
import {
  comparisonsHtml,
  htmlTable,
  manifestHtml,
  strictTableHtml,
  studyTablesHtml,
  twoPostTableHtml,
} from "./html-tables.ts";
import { PAGE_SCRIPT } from "./page-script.ts";
import { PAGE_STYLE } from "./page-style.ts";
import { reportData, type ReportData } from "./report-data.ts";
import { readRunFolder, type ReadRunOptions } from "./run-folder.ts";
import { progressNotice, recordWithheldPair } from "../runs/index.ts";
import { testModelNotice } from "./random-weights.ts";
import { leftOutNotes, runsCounted } from "./tables.ts";
import { runModelLabels, type ModelLabel } from "./model-labels.ts";
import { DESIGN_LABELS } from "../designs/index.ts";
import { tokenLimitGroups, tokenLimitNote } from "../scoring/index.ts";
import { marksLegend, sharesChart } from "./svg-charts.ts";
import { costChart, costChartKey } from "./cost-chart.ts";
import { scaleChart } from "./scale-chart.ts";
import { repeatSectionHtml } from "./repeat-html.ts";
import { SCALE_TITLE, scaleGrids } from "./scale-tables.ts";

/** Which blog and questions the runs asked about, at the top after any warning: two blogs' pages look alike otherwise. */
function blogLine(manifest: ReportData["manifest"]): string {
  if (manifest === null) return "";
  const { corpus, questions } = manifest;
  const posts = `${corpus.posts.length} ${corpus.posts.length === 1 ? "post" : "posts"}, ${corpus.sections} sections`;
  return `<p class="blog">Blog: <strong>${escapeHtml(corpus.dir)}</strong> (${posts}); questions: ${escapeHtml(questions.file)} (${questions.count}).</p>`;
}

/**
 * The page. Logged text (replies, questions, tool results, model names) is escaped where the server renders it
 * and travels to the transcript browser as JSON in a non-executing script block; the browser sets it with
 * textContent. A Content-Security-Policy allows only this page's own script and style (by hash) and no network,
 * so even a mistake in escaping could neither run injected code nor fetch anything.
 */
export function renderReportHtml(data: ReportData): string {
  const csp = [
    "default-src 'none'",
    `script-src '${sha256Base64(PAGE_SCRIPT)}'`,
    `style-src '${sha256Base64(PAGE_STYLE)}'`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  const notice = testModelNotice(data.manifest);
  const withheld = withheldNote(data.manifest ?? undefined);
  // the labels reportData gave data.models, which the transcript browser shows
  const label = runModelLabels(data.manifest, data.runs);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(data.title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<h1>${escapeHtml(data.title)}</h1>
${notice !== undefined ? `<p class="warning"><strong>${escapeHtml(notice.title)}</strong> ${escapeHtml(notice.text)}</p>` : ""}
${withheld !== undefined ? `<p class="warning">${escapeHtml(withheld)}</p>` : ""}
${data.progress !== null ? `<p class="warning" id="in-progress"><strong>Run in progress.</strong> ${escapeHtml(progressNotice(data.progress))}.</p>` : ""}
${blogLine(data.manifest)}
<p class="note">${data.runs.length} runs; strict scoring against the slugs in ${escapeHtml(data.slugsFrom)}. found: a search in the run returned the right post. cites right (strict): the text after the last "Source:" names exactly one post of the blog, the right one. grounded: that post was among those the run's own searches and reads returned.</p>

${data.study.length > 0 ? studySections(data, label) : ""}
${data.twoPost.length > 0 ? twoPostSection(data, label) : ""}
${tokenLimitHtml(data, label)}

<h2>Paired comparisons</h2>
${comparisonsHtml(data.comparisons, label, data.failed)}
${data.engineering.length > 0 ? engineeringSection(data) : ""}
${plainSections(data)}
${data.scale !== null ? scaleSection(data, data.scale) : ""}${data.repeats !== undefined ? repeatSectionHtml(data.repeats, label) : ""}

<h2>Transcripts</h2>
<div class="picker">
<label>model <select id="pick-model"></select></label>
<label>design <select id="pick-design"></select></label>
<label>question (F: found, R: cites right, strict) <select id="pick-question"></select></label>
</div>
<div id="transcript"></div>

<h2>What produced these numbers</h2>
${manifestHtml(data.manifest, label)}

<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/** The tables the page shows as plain sections of grids, each under its entry's heading (one line each, as before). */
function plainSections(data: ReportData): string {
  return TABLES.flatMap((e) =>
    e.page === undefined ? [] : [data[e.page].length > 0 ? tableSectionHtml(e.section, data[e.page]) : ""],
  ).join("\n");
}

/** The study's charts and tables, over the log's one-post questions. */
function studySections(data: ReportData, label: ModelLabel): string {
  const failed = data.failed.filter((r) => r.set === "one-post");
  const leftOut = leftOutNotes(failed)
    .map((n) => ` ${escapeHtml(n)}.`)
    .join("");
  const legend = escapeHtml(marksLegend(data.designs.map((d) => d.id)));
  const questions = runsCounted(data.strict, data.context);
  const dependent =
    (data.context.conditions?.count ?? 1) > 1
      ? " (intervals that take each run as independent, which runs of one question are not: the samples and wordings section has intervals clustered by question)"
      : "";
  return `<h2>Found and cites right</h2>
${sharesChart(data.strict, label)}
<p class="caption">${legend}.${leftOut} Whiskers: 95% Wilson intervals${dependent}; with ${escapeHtml(questions)} they are wide, so see the paired comparisons below before reading a difference as real.</p>

<h2>What each design costs for what it buys</h2>
${costChart(data.study, data.strict, label)}
${costChartKey(data.study, label)}
<p class="caption">Tokens read per question (input tokens of every call, summed) against cites right (strict); each dot stands at its values, its letter on it or joined to it by a line. Whiskers: 95% Wilson intervals. ${legend}.${leftOut}</p>

<h2>The study's table</h2>
${studyTablesHtml(data.study, label, data.context, failed)}
<p class="note">cites right here is the study's first, lenient scorer; the strict rescore follows.</p>
${strictTableHtml(data.strict, label, failed)}
${agentsHtml(data, label, failed)}
${formatMismatchHtml(data, label)}`;
}

/** Beyond the study's tables: what its prose says the agents did, counted from this log's transcripts. */
function agentsHtml(data: ReportData, label: ModelLabel, failed: ReportData["failed"]): string {
  if (data.agents.length === 0) return "";
  const g = agentsGrid(data.agents, label, failed);
  return `<h2>${escapeHtml(AGENTS_TITLE)}</h2>
<p class="note">The study's claims in prose (the turn limit never fired; no model read a section or searched again; every forced run made two calls), counted from each agent run's transcript. Searches and reads count only calls that ran; the source classes are the strict rescore's.</p>
${htmlTable(g.caption, g.header, g.rows, 2)}${(g.notes ?? []).map((n) => `<p class="note">${escapeHtml(n)}</p>`).join("")}`;
}

/** The runs whose answer may be cut short: their last reply stopped at the token limit. */
function tokenLimitHtml(data: ReportData, label: ModelLabel): string {
  const note = tokenLimitNote(data.cutAtTokenLimit, label);
  if (note === undefined) return "";
  const ids = tokenLimitGroups(data.cutAtTokenLimit, label)
    .map(([key, questions]) => `${key}: ${questions.join(", ")}`)
    .join("; ");
  return `<p class="warning" id="token-limit">${escapeHtml(note)}.</p>
<details class="note"><summary>Which runs</summary>${escapeHtml(ids)}</details>`;
}

/** Beyond the study: the tool-call format warning, shown only when some agent reply looks like another format's call. */
function formatMismatchHtml(data: ReportData, label: ModelLabel): string {
  const flagged = data.formatMismatch.filter((r) => r.other_format_replies > 0);
  if (flagged.length === 0) return "";
  const rows = data.formatMismatch.map((r) => [
    label(r.model),
    DESIGN_LABELS[r.design],
    r.tool_format,
    r.replies,
    r.other_format_replies,
  ]);
  return `<p class="warning"><strong>Tool-call format mismatch.</strong> ${flagged.length} agent row${flagged.length > 1 ? "s have" : " has"} replies that look like a tool call written in another format than the one the run parsed; they were read as answers, so the parser, not the model, may be deciding those rows. Check a reply with <code>parse-calls --format F</code> and the model's chat template; <code>--tool-format</code> chooses the format.</p>
${htmlTable("Replies that look like a call in another tool-call format", ["model", "design", "format parsed", "replies", "look like another format"], rows, 3)}`;
}

/** Beyond the study: the engineered designs beside the forced agent and the workflow, and what they did and cost. */
function engineeringSection(data: ReportData): string {
  const tables = data.engineering.map(
    (g) =>
      htmlTable(g.caption, g.header, g.rows, 2) +
      (g.notes ?? []).map((n) => `<p class="note">${escapeHtml(n)}</p>`).join(""),
  );
  return `<h2>${escapeHtml(ENGINEERING_TITLE)}</h2>
<p class="note">Beyond the study: the forced agent with its calls validated, its citation checked or its first call constrained, and the workflow with its citation checked, against the designs they extend.</p>
${tables.join("\n")}`;
}

/** Beyond the study: each design's cites right and tokens read against model size, and the paired test per size. */
function scaleSection(data: ReportData, scale: NonNullable<ReportData["scale"]>): string {
  const notice = testModelNotice(data.manifest);
  const tables = scaleGrids(
    scale,
    data.failed.filter((r) => r.set === "one-post"),
  ).map(
    (g) =>
      htmlTable(g.caption, g.header, g.rows, 1) +
      (g.notes ?? []).map((n) => `<p class="note">${escapeHtml(n)}</p>`).join(""),
  );
  return `<h2 id="scale">${escapeHtml(SCALE_TITLE)}</h2>
${notice !== undefined ? `<p class="warning"><strong>${escapeHtml(notice.title)}</strong> The sizes below are labels: these are blogqa's test models, so the chart tests the harness, not how agents scale.</p>` : ""}
${scaleChart(scale.points, notice?.chartNote)}
<p class="caption">Model parameters (as the run's suite or --models file gives them) on a log scale. Above: cites right (strict), whiskers the 95% Wilson intervals; below: tokens read per question. ${escapeHtml(marksLegend(data.designs.map((d) => d.id)))}.</p>
${tables.join("\n")}`;
}

/** The two-post questions' table, beyond the study. */
function twoPostSection(data: ReportData, label: ModelLabel): string {
  return `<h2>Questions that need two posts</h2>
<p class="note">Beyond the study. found all / any: the run's searches and reads showed every / some gold post. cites right: the text after the last "Source:" names exactly the gold posts, in any order.</p>
${twoPostTableHtml(
  data.twoPost,
  label,
  data.failed.filter((r) => r.set === "two-post"),
)}`;
}

/**
 * Reads a run folder (or its answers.jsonl), writes DIR/report.html and returns its path. `against`: a second run
 * folder of the same questions, one of the two withheld (run --withhold): it is checked, recorded as the folder's
 * withheld pair (as rescore --against records it), and the page then shows the withheld-source test's table.
 */
export async function writeReport(
  target: string,
  options: ReadRunOptions & { readonly against?: string | undefined } = {},
): Promise<string> {
  const folder = await readRunFolder(target, options);
  if (options.against !== undefined) {
    const pair = withheldComparison(folder, await readRunFolder(options.against, options), "report --against");
    for (const line of pair.notices) (options.onNotice ?? console.error)(`report --against: ${line}`);
    recordWithheldPair(folder.dir, options.against);
  }
  const { judgments, withholding } = tableInputs(folder, options.onNotice);
  const data = reportData(
    `blogqa report: ${path.basename(path.resolve(folder.dir))}`,
    folder.records,
    folder.slugs,
    folder.context,
    folder.manifest,
    folder.slugsFrom,
    folder.progress,
    { judgments, withholding },
  );
  const file = path.join(folder.dir, REPORT_FILE);
  writeFileSync(file, renderReportHtml(data));
  return file;
}

function sha256Base64(text: string): string {
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}
