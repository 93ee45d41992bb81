// The study's two tables as text (markdown, as the study printed them) and as CSV, from scored rows.
import { stringify } from "csv-stringify/sync";
import {
  leftOutNote,
  type FormatMismatchRow,
  type StrictRow,
  type StudyRow,
  type TwoPostRow,
} from "../scoring/index.ts";
import { DESIGN_LABELS } from "../designs/index.ts";
import type { ModelLabel } from "./model-labels.ts";

/** A run left out of a table because its call failed: enough to count it under the right table. */
export type LeftOutRun = { readonly model: string };

/** What a table's header says of the blog; question counts come from the rows tabled, never from elsewhere. */
export interface TableContext {
  readonly sections: number;
  /** The log's (wording, sample) conditions and whether it sampled; absent: one greedy pass, as the study's. */
  readonly conditions?: { readonly count: number; readonly sampled: boolean };
}

/** 1021 -> "1,021", as the study printed counts. */
export const formatInteger = (x: number) => Math.round(x).toLocaleString("en-US");
const int = formatInteger;
const oneDecimal = (x: number) => x.toFixed(1);

export type Cell = string | number;

/** A table as cells: the one layout that the markdown, the console and the HTML page all print. */
export interface TableGrid {
  readonly caption: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
  /** Sentences printed under the table. */
  readonly notes?: readonly string[];
}

/**
 * The study's first table, one per model, headed "N sections; N questions; <model>, greedy" as the study headed it.
 * Its columns come first, in its order; "errors" (runs whose call failed) is ours, at the end. `failed`: the runs
 * left out of the rows, counted in a note under each model's table.
 */
export function studyTableGrids(
  rows: readonly StudyRow[],
  label: ModelLabel,
  context: TableContext,
  failed: readonly LeftOutRun[] = [],
): TableGrid[] {
  const models = [...new Set(rows.map((r) => r.model))];
  return models.map((model) => ({
    caption: `${int(context.sections)} sections; ${runsCounted(
      rows.filter((r) => r.model === model),
      context,
    )}; ${label(model)}, ${context.conditions?.sampled ? "sampled" : "greedy"}`,
    header: [
      "design",
      "found",
      "cites any",
      "cites right",
      "model calls",
      "tool calls",
      "last context",
      "tokens read",
      "no tool",
      "malformed",
      "errors",
    ],
    rows: rows
      .filter((r) => r.model === model)
      .map((r) => [
        DESIGN_LABELS[r.design],
        r.found,
        r.cites_any,
        r.cites_right,
        oneDecimal(r.model_calls),
        oneDecimal(r.tool_calls),
        int(r.last_context),
        int(r.tokens_read),
        r.no_tool,
        r.malformed,
        r.errors,
      ]),
    notes: leftOutNotes(failed.filter((r) => r.model === model)),
  }));
}

/**
 * "6 questions", or "2 to 6 questions" when the model's designs were run on different numbers (an unfinished run);
 * for a log of several wording and sample conditions, "60 runs over 2 wording and sample conditions": its counts are
 * runs, not questions.
 */
export function runsCounted(
  rows: readonly { readonly n: number }[],
  context: Pick<TableContext, "conditions">,
): string {
  const least = Math.min(...rows.map((r) => r.n));
  const most = Math.max(...rows.map((r) => r.n));
  const conditions = context.conditions?.count ?? 1;
  const unit = conditions > 1 ? (most === 1 ? "run" : "runs") : most === 1 ? "question" : "questions";
  const counted = least === most ? `${most} ${unit}` : `${least} to ${most} ${unit}`;
  return conditions > 1 ? `${counted} over ${conditions} wording and sample conditions` : counted;
}

/** The left-out line under a table, as a list of notes (empty when no run of the table failed). */
export function leftOutNotes(failed: readonly LeftOutRun[]): string[] {
  const note = leftOutNote(failed);
  return note === undefined ? [] : [note];
}

/** The strict rescore, with the grounded counts (beyond the study) in the last two columns. */
export function strictTableGrid(
  rows: readonly StrictRow[],
  label: ModelLabel,
  failed: readonly LeftOutRun[] = [],
): TableGrid {
  return {
    caption: "Strict rescore (source line: none / one real post / several / placeholder or invented)",
    header: [
      "model",
      "design",
      "found",
      "cites right",
      "none",
      "one real",
      "several",
      "invented",
      "cites right, grounded",
      "citations grounded",
    ],
    rows: rows.map((r) => [
      label(r.model),
      DESIGN_LABELS[r.design],
      r.found,
      r.cites_right,
      r.source_none,
      r.source_one_real,
      r.source_several,
      r.source_invented,
      r.cites_right_grounded,
      r.citations_grounded,
    ]),
    notes: [slugInsideWordNote(rows, label), ignoredCallBlocksNote(rows, label), ...leftOutNotes(failed)],
  };
}

/**
 * The two-post questions' table (beyond the study), all models in one: found all / any (the run's searches and
 * reads showed every / some gold post), cites right = the source line names exactly the gold posts, then the
 * source classes and the study's cost columns.
 */
export function twoPostTableGrid(
  rows: readonly TwoPostRow[],
  label: ModelLabel,
  failed: readonly LeftOutRun[] = [],
): TableGrid {
  return {
    caption:
      "Two-post questions (source line against the gold posts: exactly / strict subset / plus others / some plus others / none of them / no source line)",
    header: [
      "model",
      "design",
      "n",
      "found all",
      "found any",
      "cites any",
      "cites right",
      "exact",
      "subset",
      "plus others",
      "some plus others",
      "none of them",
      "no source",
      "model calls",
      "tool calls",
      "last context",
      "tokens read",
      "no tool",
      "malformed",
      "errors",
    ],
    rows: rows.map((r) => [
      label(r.model),
      DESIGN_LABELS[r.design],
      r.n,
      r.found_all,
      r.found_any,
      r.cites_any,
      r.cites_right,
      r.source_exact,
      r.source_subset,
      r.source_superset,
      r.source_mixed,
      r.source_none_of_gold,
      r.source_none,
      oneDecimal(r.model_calls),
      oneDecimal(r.tool_calls),
      int(r.last_context),
      int(r.tokens_read),
      r.no_tool,
      r.malformed,
      r.errors,
    ]),
    notes: leftOutNotes(failed),
  };
}

/** Beyond the study: how often the substring rule counted a slug that stood only inside a longer word. */
function slugInsideWordNote(rows: readonly StrictRow[], label: ModelLabel): string {
  const counted = rows
    .filter((r) => r.slug_inside_word > 0)
    .map((r) => `${label(r.model)}, ${DESIGN_LABELS[r.design]}: ${r.slug_inside_word}`);
  return (
    "Slugs inside longer words (beyond the study): source lines that name a post only inside a longer word (as " +
    '"rag" in "leverage-notes"), which the study\'s substring rule, kept here, counts as naming it: ' +
    `${counted.length > 0 ? counted.join("; ") : "none"}.`
  );
}

/** Beyond the study: how often an agent wrote something call-like that the study's parser did not take. */
function ignoredCallBlocksNote(rows: readonly StrictRow[], label: ModelLabel): string {
  const agents = rows.filter((r) => r.design !== "workflow");
  const row = (r: StrictRow) => `${label(r.model)}, ${DESIGN_LABELS[r.design]}`;
  const counted = agents
    .filter((r) => (r.ignored_call_blocks ?? 0) > 0)
    .map((r) => `${row(r)}: ${r.ignored_call_blocks}`);
  const unknown = agents.filter((r) => r.ignored_call_blocks === null).map(row);
  return (
    "Ignored call blocks (beyond the study): <tool_call> tags in agent replies that opened no call the study's " +
    'pattern took (unclosed, not followed by "{", or stray), each reply read as the study read it: ' +
    `${counted.length > 0 ? counted.join("; ") : "none"}.` +
    (unknown.length > 0 ? ` Not logged (an older log) for: ${unknown.join("; ")}.` : "")
  );
}

export function markdownTable(grid: TableGrid): string {
  const line = (cells: readonly Cell[]) => `| ${cells.map(markdownCell).join(" | ")} |`;
  const notes = (grid.notes ?? []).flatMap((note) => ["", note]);
  return [
    grid.caption,
    "",
    line(grid.header),
    line(grid.header.map(() => "---")),
    ...grid.rows.map(line),
    ...notes,
  ].join("\n");
}

export function studyTablesMarkdown(
  rows: readonly StudyRow[],
  label: ModelLabel,
  context: TableContext,
  failed: readonly LeftOutRun[] = [],
): string {
  return studyTableGrids(rows, label, context, failed).map(markdownTable).join("\n\n");
}

export function strictTableMarkdown(
  rows: readonly StrictRow[],
  label: ModelLabel,
  failed: readonly LeftOutRun[] = [],
): string {
  return markdownTable(strictTableGrid(rows, label, failed));
}

export function twoPostTableMarkdown(
  rows: readonly TwoPostRow[],
  label: ModelLabel,
  failed: readonly LeftOutRun[] = [],
): string {
  return markdownTable(twoPostTableGrid(rows, label, failed));
}

/**
 * A cell's text as one markdown table cell: a model or question id (or anything a log holds) cannot end the cell
 * (|), the row (a newline) or open HTML (<, >, &) in a renderer that passes HTML through.
 */
export function markdownCell(cell: Cell): string {
  if (typeof cell === "number") return String(cell);
  return cell
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("|", "\\|")
    .replace(/\r\n|\r|\n/g, " ");
}

/**
 * The rows as CSV. A text cell that a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a
 * carriage return: OWASP's CSV injection rule) is written with a leading single quote; numbers stay numbers.
 */
export function rowsCsv(rows: readonly object[]): string {
  return stringify(rows as Record<string, unknown>[], {
    header: true,
    cast: { string: (value) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value) },
  });
}

/** Beyond the study: every agent row's count of replies that look like a call in another tool-call format. */
export function formatMismatchGrid(rows: readonly FormatMismatchRow[], label: ModelLabel): TableGrid {
  return {
    caption: "Replies that look like a call in another tool-call format (beyond the study)",
    header: ["model", "design", "format parsed", "replies", "look like another format"],
    rows: rows.map((r) => [label(r.model), DESIGN_LABELS[r.design], r.tool_format, r.replies, r.other_format_replies]),
  };
}

/**
 * Beyond the study: a warning, with every agent row's count, when some replies look like a tool call written in
 * another format than the one the run parsed; undefined when none do.
 */
export function formatMismatchMarkdown(rows: readonly FormatMismatchRow[], label: ModelLabel): string | undefined {
  const flagged = rows.filter((r) => r.other_format_replies > 0);
  if (flagged.length === 0) return undefined;
  const warning =
    `> **Warning: tool-call format mismatch.** ${flagged.length} agent row${flagged.length > 1 ? "s have" : " has"} ` +
    "replies that look like a tool call written in another format than the one the run parsed; they were read as " +
    "answers, so the parser, not the model, may be deciding those rows. Check a reply with " +
    "`parse-calls --format F`, and the model's chat template; `--tool-format` chooses the format.";
  return `${warning}\n\n${markdownTable(formatMismatchGrid(rows, label))}`;
}
