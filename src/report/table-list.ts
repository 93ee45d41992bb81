// Every table a run folder can show, listed once: when it applies, its grids, its CSV files and its page section. The
// markdown, CSV and JSON writers and the report page loop over this list, and DERIVED_FILES names its CSVs.
import {
  agentActionRows,
  compareRuns,
  cutAtTokenLimit,
  engineeringRows,
  formatMismatchRows,
  keyFactRows,
  strictRows,
  studyRows,
  tokenLimitNote,
  twoPostRows,
  type splitQuestionSets,
} from "../scoring/index.ts";
import type { AnswerRecord, Judgment, RunManifest } from "../runs/index.ts";
import { AGENTS_TITLE, agentsCsvRows, agentsGrid } from "./agents-table.ts";
import { ENGINEERING_TITLE, engineeringGrids } from "./engineering-tables.ts";
import { JUDGE_TITLE, judgeCsvRows, judgeGrids } from "./judge-tables.ts";
import { tableSectionHtml } from "./html-tables.ts";
import { keyFactGrids } from "./key-fact-tables.ts";
import {
  agentsSectionHtml,
  comparisonsSectionHtml,
  engineeringSectionHtml,
  formatMismatchHtml,
  logDesigns,
  scaleSectionHtml,
  strictSectionHtml,
  studySectionHtml,
  tokenLimitHtml,
  twoPostSectionHtml,
} from "./page-sections.ts";
import { repeatSectionHtml } from "./repeat-html.ts";
import { repeatCsvRows, repeatTables, type RepeatTables } from "./repeat-tables.ts";
import { runScaleTable, SCALE_TITLE, scaleCsvRows, scaleGrids } from "./scale-tables.ts";
import {
  formatMismatchGrid,
  formatMismatchMarkdown,
  markdownTable,
  strictTableGrid,
  studyTableGrids,
  studyTablesMarkdown,
  twoPostTableGrid,
  type TableContext,
  type TableGrid,
} from "./tables.ts";
import { withholdingCsvRows, type WithheldComparison } from "./withholding-tables.ts";
import type { ModelLabel } from "./model-labels.ts";

/** A log split by question set (see splitQuestionSets). */
type QuestionSets = ReturnType<typeof splitQuestionSets>;

/** Everything a table is computed from: the folder's log split once, and what the folder records beside it. */
export interface TableInputs {
  /** The whole log, failed runs included. */
  readonly all: readonly AnswerRecord[];
  /** The runs scored, and those left out because their call failed (see splitFailed). */
  readonly scored: readonly AnswerRecord[];
  readonly failed: readonly AnswerRecord[];
  readonly sets: QuestionSets;
  readonly failedSets: QuestionSets;
  readonly slugs: readonly string[];
  /** The header's context, with the log's conditions. */
  readonly context: TableContext;
  readonly manifest: RunManifest | undefined;
  /** Every table's name for each model, one for the whole folder (see runModelLabels). */
  readonly label: ModelLabel;
  /** judgments.jsonl's verdicts (empty for a folder never judged). */
  readonly judgments: readonly Judgment[];
  /** The withheld-source test against the folder withheld-pair.json names; undefined for a folder never paired. */
  readonly withholding: WithheldComparison | undefined;
}

/** One CSV file of a table, and its rows; undefined rows: the file is not written for this folder. */
export interface TableCsv {
  readonly file: string;
  readonly rows: (t: TableInputs) => readonly object[] | undefined;
}

export interface TableEntry {
  /** The key of the table in `rescore --json` and `compare --json`. */
  readonly id: string;
  readonly applies: (t: TableInputs) => boolean;
  readonly grids: (t: TableInputs) => readonly TableGrid[];
  /** tables.md's blocks, where they are more than the grids (a warning above them); default one per grid. */
  readonly markdown?: (t: TableInputs) => readonly string[];
  readonly csv: readonly TableCsv[];
  /** The report page's heading the table stands under. */
  readonly section: string;
  /**
   * The table's section of the report page, for a table drawn with more than its grids (a chart, a note, a warning);
   * `grids` are its grids as `--json` has them. Left out: the grids under `section`.
   */
  readonly page?: (t: TableInputs, grids: readonly TableGrid[]) => string;
}

/** A function of the inputs computed once per inputs, for what several of an entry's parts read. */
function perInputs<T>(compute: (t: TableInputs) => T): (t: TableInputs) => T {
  const cache = new WeakMap<TableInputs, { value: T }>();
  return (t) => {
    const hit = cache.get(t);
    if (hit !== undefined) return hit.value;
    const value = compute(t);
    cache.set(t, { value });
    return value;
  };
}

// The study's tables cover the one-post questions, and stand even for an empty log, as the study's own two did.
const studySet = (t: TableInputs) => t.sets.onePost.length > 0 || t.sets.twoPost.length === 0;
const study = perInputs((t) => studyRows(t.scored, t.failed));
const strict = perInputs((t) => strictRows(t.scored, t.slugs));
const agents = perInputs((t) => agentActionRows(t.scored, t.slugs));
const mismatch = perInputs((t) => {
  const formats = new Map(t.manifest?.models.map((m) => [m.id, m.toolFormat]));
  return formatMismatchRows(t.scored, (model) => formats.get(model));
});
const twoPost = perInputs((t) => twoPostRows(t.scored, t.slugs, t.failed));
const cut = perInputs((t) => cutAtTokenLimit(t.scored));
const cutNote = perInputs((t) => tokenLimitNote(cut(t), t.label));
const engineering = perInputs((t) => engineeringGrids(t.scored, t.slugs, t.label, t.failed));
const scale = perInputs((t) => runScaleTable(t.scored, t.slugs, t.manifest));
const keyFacts = perInputs((t) => keyFactGrids(t.scored, t.slugs, t.label));
const judge = perInputs((t) => judgeGrids(t.scored, t.judgments, t.label));
const repeats = perInputs((t): RepeatTables | undefined => repeatTables(t.sets.onePost, t.slugs, t.label));
const repeatCsv = perInputs((t) => {
  const r = repeats(t);
  return r === undefined ? undefined : repeatCsvRows(r);
});

/** In the order of tables.md and the page. */
export const TABLES: readonly TableEntry[] = [
  {
    id: "study",
    applies: studySet,
    grids: (t) => studyTableGrids(study(t), t.label, t.context, t.failedSets.onePost),
    // One block for all models' tables, as the study printed them (an empty log gives one empty block).
    markdown: (t) => [studyTablesMarkdown(study(t), t.label, t.context, t.failedSets.onePost)],
    csv: [{ file: "study.csv", rows: study }],
    section: "The study's table",
    // The page draws the study's section (its charts first) for a log with one-post questions only.
    page: (t, grids) =>
      t.sets.onePost.length === 0
        ? ""
        : studySectionHtml({
            rows: { study: study(t), strict: strict(t) },
            grids,
            label: t.label,
            context: t.context,
            failed: t.failedSets.onePost,
            designs: logDesigns(t.all),
          }),
  },
  {
    id: "strict",
    applies: studySet,
    grids: (t) => [strictTableGrid(strict(t), t.label, t.failedSets.onePost)],
    csv: [{ file: "strict.csv", rows: strict }],
    section: "The study's table",
    page: (t, grids) => (t.sets.onePost.length === 0 ? "" : strictSectionHtml(grids)),
  },
  {
    id: "agents",
    applies: (t) => studySet(t) && agents(t).length > 0,
    grids: (t) => [agentsGrid(agents(t), t.label, t.failedSets.onePost)],
    csv: [{ file: "agents.csv", rows: (t) => (agents(t).length > 0 ? agentsCsvRows(agents(t)) : undefined) }],
    section: AGENTS_TITLE,
    page: (_, grids) => agentsSectionHtml(grids),
  },
  {
    id: "format-mismatch",
    applies: (t) => studySet(t) && formatMismatchMarkdown(mismatch(t), t.label) !== undefined,
    grids: (t) => [formatMismatchGrid(mismatch(t), t.label)],
    markdown: (t) => [formatMismatchMarkdown(mismatch(t), t.label)!],
    csv: [],
    section: "The study's table",
    page: (t) => formatMismatchHtml(mismatch(t), t.label),
  },
  {
    id: "two-post",
    applies: (t) => t.sets.twoPost.length > 0,
    grids: (t) => [twoPostTableGrid(twoPost(t), t.label, t.failedSets.twoPost)],
    csv: [{ file: "two-post.csv", rows: twoPost }],
    section: "Questions that need two posts",
    page: (_, grids) => twoPostSectionHtml(grids),
  },
  {
    // A note, not a table: the runs whose answer may be cut short, said where the study's tables end.
    id: "token-limit",
    applies: (t) => cutNote(t) !== undefined,
    grids: () => [],
    markdown: (t) => [`**${cutNote(t)}**`],
    csv: [],
    section: "Found and cites right",
    page: (t) => tokenLimitHtml(cut(t), t.label),
  },
  {
    // The page's alone: tables.md and --json leave the paired comparisons to `compare`.
    id: "comparisons",
    applies: () => true,
    grids: () => [],
    markdown: () => [],
    csv: [],
    section: "Paired comparisons",
    page: (t) => comparisonsSectionHtml(compareRuns(t.scored, t.slugs), t.label, t.failed),
  },
  {
    id: "engineering",
    applies: (t) => engineering(t).length > 0,
    grids: engineering,
    csv: [{ file: "engineering.csv", rows: (t) => engineeringRows(t.scored, t.slugs) }],
    section: ENGINEERING_TITLE,
    page: (_, grids) => engineeringSectionHtml(grids),
  },
  {
    id: "key-facts",
    applies: (t) => keyFacts(t).length > 0,
    grids: keyFacts,
    csv: [{ file: "key-facts.csv", rows: (t) => keyFactRows(t.scored, t.slugs) }],
    section: "Answers and evidence",
  },
  {
    id: "judge",
    applies: (t) => judge(t).length > 0,
    grids: judge,
    csv: [{ file: "judge.csv", rows: (t) => judgeCsvRows(t.scored, t.judgments) }],
    section: JUDGE_TITLE,
  },
  {
    id: "withholding",
    applies: (t) => t.withholding !== undefined,
    grids: (t) => [t.withholding!.grid],
    csv: [{ file: "withholding.csv", rows: (t) => withholdingCsvRows(t.withholding!) }],
    section: "The withheld-source test",
  },
  {
    id: "scale",
    applies: (t) => scale(t) !== undefined,
    grids: (t) => scaleGrids(scale(t)!, t.failedSets.onePost),
    csv: [{ file: "scale.csv", rows: (t) => scaleCsvRows(scale(t)!) }],
    section: SCALE_TITLE,
    page: (t, grids) => scaleSectionHtml(scale(t)!, grids, t.manifest, logDesigns(t.all)),
  },
  {
    id: "repeats",
    applies: (t) => repeats(t) !== undefined,
    grids: (t) => repeats(t)!.grids,
    csv: [
      { file: "repeats.csv", rows: (t) => repeatCsv(t)!.repeats },
      { file: "paired-rates.csv", rows: (t) => repeatCsv(t)!.paired },
      { file: "conditions.csv", rows: (t) => repeatCsv(t)!.conditions },
      {
        file: "sensitivity.csv",
        rows: (t) => (repeatCsv(t)!.sensitivity.length > 0 ? repeatCsv(t)!.sensitivity : undefined),
      },
    ],
    section: "Samples and wordings",
    page: (t) => repeatSectionHtml(repeats(t)!, t.label),
  },
];

/** The entries that apply to a folder, in tables.md's order. */
export function tablesOf(t: TableInputs): TableEntry[] {
  return TABLES.filter((e) => e.applies(t));
}

/** An entry's blocks of tables.md. */
export function entryMarkdown(entry: TableEntry, t: TableInputs): readonly string[] {
  return entry.markdown?.(t) ?? entry.grids(t).map(markdownTable);
}

/** An entry's section of the report page, from its grids as `--json` has them. */
export function entryHtml(entry: TableEntry, t: TableInputs, grids: readonly TableGrid[]): string {
  return entry.page?.(t, grids) ?? tableSectionHtml(entry.section, grids);
}

/** The grids of one entry by id, or none where it does not apply (for the page's sections). */
export function gridsOf(id: string, t: TableInputs): readonly TableGrid[] {
  const entry = TABLES.find((e) => e.id === id);
  if (entry === undefined) throw new Error(`no table ${id}`);
  return entry.applies(t) ? entry.grids(t) : [];
}

/** `--json`'s tables, keyed by entry id: its grids (as tables.md shows them) and its CSV files' rows. */
export type TablesJson = Record<string, { grids: readonly TableGrid[]; rows: Record<string, readonly object[]> }>;

/**
 * `--json`'s tables: each entry that applies and has a table, by id, with its grids (as tables.md shows them) and
 * its CSV files' rows (the figures as numbers).
 */
export function tablesJson(t: TableInputs): TablesJson {
  const out: TablesJson = {};
  for (const entry of tablesOf(t)) {
    const grids = entry.grids(t);
    if (grids.length === 0) continue;
    const rows: Record<string, readonly object[]> = {};
    for (const csv of entry.csv) {
      const r = csv.rows(t);
      if (r !== undefined) rows[csv.file] = r;
    }
    out[entry.id] = { grids, rows };
  }
  return out;
}
