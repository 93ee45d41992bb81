// The report page: one self-contained HTML file (inline CSS, SVG and script; no network) built from a run folder.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { escapeHtml, jsonForScript } from "./html-escape.ts";
import { withheldComparison, withheldNote } from "./withholding-tables.ts";
import { entryHtml, tablesOf } from "./table-list.ts";
import { tableInputs } from "./table-inputs.ts";
import { REPORT_FILE } from "./derived-files.ts";
import { manifestHtml } from "./html-tables.ts";
import { PAGE_SCRIPT } from "./page-script.ts";
import { PAGE_STYLE } from "./page-style.ts";
import { reportPage, type ReportData, type ReportPage } from "./report-data.ts";
import { readRunFolder, type ReadRunOptions } from "./read-run-folder.ts";
import { progressNotice, recordWithheldPair } from "../runs/index.ts";
import { testModelNotice } from "./random-weights.ts";

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
export function renderReportHtml({ data, inputs }: ReportPage): string {
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

${tableSections({ data, inputs })}

<h2>Transcripts</h2>
<div class="picker">
<label>model <select id="pick-model"></select></label>
<label>design <select id="pick-design"></select></label>
<label>question (F: found, R: cites right, strict) <select id="pick-question"></select></label>
</div>
<div id="transcript"></div>

<h2>What produced these numbers</h2>
${manifestHtml(data.manifest, inputs.label)}

<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/** Every table's section that applies, in TABLES' order, each from its grids as the page's data holds them. */
function tableSections({ data, inputs }: ReportPage): string {
  return tablesOf(inputs)
    .map((e) => entryHtml(e, inputs, data.tables[e.id]?.grids ?? []))
    .filter((html) => html !== "")
    .join("\n");
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
  const page = reportPage(`blogqa report: ${path.basename(path.resolve(folder.dir))}`, folder, {
    judgments,
    withholding,
  });
  const file = path.join(folder.dir, REPORT_FILE);
  writeFileSync(file, renderReportHtml(page));
  return file;
}

function sha256Base64(text: string): string {
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}
