// The report page's sections that show more than a table's grids under its heading: charts, notes and warnings.
import {
  tokenLimitGroups,
  tokenLimitNote,
  type Comparison,
  type CutRun,
  type FormatMismatchRow,
  type ScaleTable,
  type StrictRow,
  type StudyRow,
} from "../scoring/index.ts";
import type { AnswerRecord, RunManifest } from "../runs/index.ts";
import { DESIGN_LABELS, type DesignId } from "../designs/index.ts";
import { AGENTS_TITLE } from "./agents-table.ts";
import { costChart, costChartKey } from "./cost-chart.ts";
import { ENGINEERING_TITLE } from "./engineering-tables.ts";
import { escapeHtml } from "./html-escape.ts";
import { comparisonsHtml, gridHtml, htmlTable } from "./html-tables.ts";
import type { ModelLabel } from "./model-labels.ts";
import type { TableInputs } from "./table-list.ts";
import { testModelNotice } from "./random-weights.ts";
import { scaleChart } from "./scale-chart.ts";
import { SCALE_TITLE } from "./scale-tables.ts";
import { marksLegend, sharesChart } from "./svg-charts.ts";
import { leftOutNotes, runsCounted, type LeftOutRun, type TableGrid } from "./tables.ts";

/** The log's designs (failed runs' too), in the registry's order: the charts' legend and the transcript picker. */
export function logDesigns(all: readonly AnswerRecord[]): DesignId[] {
  return (Object.keys(DESIGN_LABELS) as DesignId[]).filter((v) => all.some((r) => r.design === v));
}

/** What the study's section draws from: its rows and grids, the one-post runs left out of them, the log's designs. */
export interface StudySection extends Pick<TableInputs, "label" | "context"> {
  readonly rows: { readonly study: readonly StudyRow[]; readonly strict: readonly StrictRow[] };
  readonly grids: readonly TableGrid[];
  readonly failed: readonly LeftOutRun[];
  readonly designs: readonly DesignId[];
}

/** The study's charts, then its table (one per model, lenient cites right) over the log's one-post questions. */
export function studySectionHtml(s: StudySection): string {
  const leftOut = leftOutNotes(s.failed)
    .map((n) => ` ${escapeHtml(n)}.`)
    .join("");
  const legend = escapeHtml(marksLegend(s.designs));
  const questions = runsCounted(s.rows.strict, s.context);
  const dependent =
    (s.context.conditions?.count ?? 1) > 1
      ? " (intervals that take each run as independent, which runs of one question are not: the samples and wordings section has intervals clustered by question)"
      : "";
  return `<h2>Found and cites right</h2>
${sharesChart(s.rows.strict, s.label)}
<p class="caption">${legend}.${leftOut} Whiskers: 95% Wilson intervals${dependent}; with ${escapeHtml(questions)} they are wide, so see the paired comparisons below before reading a difference as real.</p>

<h2>What each design costs for what it buys</h2>
${costChart(s.rows.study, s.rows.strict, s.label)}
${costChartKey(s.rows.study, s.label)}
<p class="caption">Tokens read per question (input tokens of every call, summed) against cites right (strict); each dot stands at its values, its letter on it or joined to it by a line. Whiskers: 95% Wilson intervals. ${legend}.${leftOut}</p>

<h2>The study's table</h2>
${s.grids.map((g) => gridHtml(g, 1)).join("")}
<p class="note">cites right here is the study's first, lenient scorer; the strict rescore follows.</p>`;
}

/** The strict rescore, under the study's table. */
export function strictSectionHtml([g]: readonly TableGrid[]): string {
  return g === undefined ? "" : gridHtml({ ...g, caption: `${g.caption}, with grounded citations` }, 2);
}

/** Beyond the study's tables: what its prose says the agents did, counted from this log's transcripts. */
export function agentsSectionHtml(grids: readonly TableGrid[]): string {
  return `<h2>${escapeHtml(AGENTS_TITLE)}</h2>
<p class="note">The study's claims in prose (the turn limit never fired; no model read a section or searched again; every forced run made two calls), counted from each agent run's transcript. Searches and reads count only calls that ran; the source classes are the strict rescore's.</p>
${grids.map((g) => gridHtml(g, 2)).join("")}`;
}

/** Beyond the study: the tool-call format warning, shown only when some agent reply looks like another format's call. */
export function formatMismatchHtml(rows: readonly FormatMismatchRow[], label: ModelLabel): string {
  const flagged = rows.filter((r) => r.other_format_replies > 0);
  if (flagged.length === 0) return "";
  const cells = rows.map((r) => [
    label(r.model),
    DESIGN_LABELS[r.design],
    r.tool_format,
    r.replies,
    r.other_format_replies,
  ]);
  return `<p class="warning"><strong>Tool-call format mismatch.</strong> ${flagged.length} agent row${flagged.length > 1 ? "s have" : " has"} replies that look like a tool call written in another format than the one the run parsed; they were read as answers, so the parser, not the model, may be deciding those rows. Check a reply with <code>parse-calls --format F</code> and the model's chat template; <code>--tool-format</code> chooses the format.</p>
${htmlTable("Replies that look like a call in another tool-call format", ["model", "design", "format parsed", "replies", "look like another format"], cells, 3)}`;
}

/** The two-post questions' table, beyond the study. */
export function twoPostSectionHtml(grids: readonly TableGrid[]): string {
  return `<h2>Questions that need two posts</h2>
<p class="note">Beyond the study. found all / any: the run's searches and reads showed every / some gold post. cites right: the text after the last "Source:" names exactly the gold posts, in any order.</p>
${grids.map((g) => gridHtml(g, 2)).join("")}`;
}

/** The runs whose answer may be cut short: their last reply stopped at the token limit. */
export function tokenLimitHtml(cut: readonly CutRun[], label: ModelLabel): string {
  const note = tokenLimitNote(cut, label);
  if (note === undefined) return "";
  const ids = tokenLimitGroups(cut, label)
    .map(([key, questions]) => `${key}: ${questions.join(", ")}`)
    .join("; ");
  return `<p class="warning" id="token-limit">${escapeHtml(note)}.</p>
<details class="note"><summary>Which runs</summary>${escapeHtml(ids)}</details>`;
}

/** The paired comparisons, with the runs left out of them. */
export function comparisonsSectionHtml(
  comparisons: readonly Comparison[],
  label: ModelLabel,
  failed: readonly LeftOutRun[],
): string {
  return `
<h2>Paired comparisons</h2>
${comparisonsHtml(comparisons, label, failed)}`;
}

/** Beyond the study: the engineered designs beside the forced agent and the workflow, and what they did and cost. */
export function engineeringSectionHtml(grids: readonly TableGrid[]): string {
  return `<h2>${escapeHtml(ENGINEERING_TITLE)}</h2>
<p class="note">Beyond the study: the forced agent with its calls validated, its citation checked or its first call constrained, and the workflow with its citation checked, against the designs they extend.</p>
${grids.map((g) => gridHtml(g, 2)).join("\n")}`;
}

/** Beyond the study: each design's cites right and tokens read against model size, and the paired test per size. */
export function scaleSectionHtml(
  scale: ScaleTable,
  grids: readonly TableGrid[],
  manifest: RunManifest | undefined,
  designs: readonly DesignId[],
): string {
  const notice = testModelNotice(manifest);
  return `<h2 id="scale">${escapeHtml(SCALE_TITLE)}</h2>
${notice !== undefined ? `<p class="warning"><strong>${escapeHtml(notice.title)}</strong> The sizes below are labels: these are blogqa's test models, so the chart tests the harness, not how agents scale.</p>` : ""}
${scaleChart(scale.points, notice?.chartNote)}
<p class="caption">Model parameters (as the run's suite or --models file gives them) on a log scale. Above: cites right (strict), whiskers the 95% Wilson intervals; below: tokens read per question. ${escapeHtml(marksLegend(designs))}.</p>
${grids.map((g) => gridHtml(g, 1)).join("\n")}`;
}
