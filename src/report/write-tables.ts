// Scores a run folder's answers.jsonl and writes tables.md, study.csv, strict.csv and agents.csv (and two-post.csv,
// and the CSVs of the tables beyond the study that the log has).
import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  conditionSummary,
  cutAtTokenLimit,
  splitFailed,
  agentActionRows,
  tokenLimitNote,
  engineeringRows,
  formatMismatchRows,
  splitQuestionSets,
  strictRows,
  studyRows,
  twoPostRows,
  keyFactRows,
} from "../scoring/index.ts";
import { DERIVED_FILES, progressNotice, readJudgments, readManifest, runInProgress } from "../runs/index.ts";
import type { AnswerRecord } from "../runs/index.ts";
import { randomWeightsLabel } from "./random-weights.ts";
import { engineeringGrids } from "./engineering-tables.ts";
import { AGENTS_CSV, agentsCsvRows, agentsGrid } from "./agents-table.ts";
import { runScaleTable, scaleCsvRows, scaleGrids } from "./scale-tables.ts";
import { repeatCsvRows, repeatTables } from "./repeat-tables.ts";
import { keyFactGrids } from "./key-fact-tables.ts";
import { judgeCsvRows, judgeGrids } from "./judge-tables.ts";
import { withheldNote, withholdingCsvRows, type WithheldComparison } from "./withholding-tables.ts";
import {
  formatMismatchMarkdown,
  markdownTable,
  modelLabel,
  rowsCsv,
  strictTableMarkdown,
  studyTablesMarkdown,
  twoPostTableMarkdown,
  type TableContext,
} from "./tables.ts";

export const TWO_POST_CSV = DERIVED_FILES.twoPostCsv;
export const ENGINEERING_CSV = DERIVED_FILES.engineeringCsv;
export const SCALE_CSV = DERIVED_FILES.scaleCsv;
const KEY_FACTS_CSV = DERIVED_FILES.keyFactsCsv;

/** What tables.md holds beyond what its own folder's files give: the withheld-source test (rescore --against). */
export interface TableExtras {
  readonly withholding?: WithheldComparison | undefined;
}

/**
 * One table per question set: the study's two tables over the one-post questions, the two-post table over the
 * others. `all` is the whole log: runs whose call failed are left out of every table (see splitFailed) and counted
 * under each. Returns the markdown it wrote, for printing, and the names of the files it wrote.
 */
export function writeTables(
  dir: string,
  all: readonly AnswerRecord[],
  slugs: readonly string[],
  given: TableContext,
  extras: TableExtras = {},
): { markdown: string; files: string[] } {
  const { scored: records, failed } = splitFailed(all);
  const context = { ...given, conditions: conditionSummary(all) };
  const failedSets = splitQuestionSets(failed);
  const sets = splitQuestionSets(records);
  const blocks: string[] = [];
  const files = ["tables.md"];
  const manifest = readManifest(dir);
  blocks.push(...randomWeightsLabel(manifest));
  const withheld = withheldNote(manifest);
  if (withheld !== undefined) blocks.push(`> **${withheld}**`);
  const progress = runInProgress(dir, manifest, all);
  if (progress !== undefined) blocks.push(`**${progressNotice(progress)}**`);
  if (sets.onePost.length > 0 || sets.twoPost.length === 0) {
    const study = studyRows(records, failed);
    const strict = strictRows(records, slugs);
    blocks.push(
      studyTablesMarkdown(study, context, failedSets.onePost),
      strictTableMarkdown(strict, failedSets.onePost),
    );
    // Beyond the study's tables, its prose: what the agents did, where a log has agent runs.
    const agents = agentActionRows(records, slugs);
    if (agents.length > 0) blocks.push(markdownTable(agentsGrid(agents, failedSets.onePost)));
    const formats = new Map(manifest?.models.map((m) => [m.id, m.toolFormat]));
    const mismatch = formatMismatchMarkdown(formatMismatchRows(records, (model) => formats.get(model)));
    if (mismatch !== undefined) blocks.push(mismatch);
    writeFileSync(path.join(dir, "study.csv"), rowsCsv(study));
    writeFileSync(path.join(dir, "strict.csv"), rowsCsv(strict));
    files.push("study.csv", "strict.csv");
    if (agents.length > 0) {
      writeFileSync(path.join(dir, AGENTS_CSV), rowsCsv(agentsCsvRows(agents)));
      files.push(AGENTS_CSV);
    }
  }
  if (sets.twoPost.length > 0) {
    const rows = twoPostRows(records, slugs, failed);
    blocks.push(twoPostTableMarkdown(rows, failedSets.twoPost));
    writeFileSync(path.join(dir, TWO_POST_CSV), rowsCsv(rows));
    files.push(TWO_POST_CSV);
  }
  const cut = tokenLimitNote(cutAtTokenLimit(records), modelLabel);
  if (cut !== undefined) blocks.push(`**${cut}**`);
  // Beyond the study, for a log with engineered designs: what they bought and cost.
  const engineering = engineeringGrids(records, slugs, failed);
  if (engineering.length > 0) {
    blocks.push(...engineering.map(markdownTable));
    writeFileSync(path.join(dir, ENGINEERING_CSV), rowsCsv(engineeringRows(records, slugs)));
    files.push(ENGINEERING_CSV);
  }
  // Beyond the study, for a run of several sized models (run --suite or --models): the scale tables.
  const scale = runScaleTable(records, slugs, manifest);
  if (scale !== undefined) {
    blocks.push(...scaleGrids(scale, failedSets.onePost).map(markdownTable));
    writeFileSync(path.join(dir, SCALE_CSV), rowsCsv(scaleCsvRows(scale)));
    files.push(SCALE_CSV);
  }
  // Beyond the study, for questions that carry key facts: whether the answers were right, and from what.
  const keyFacts = keyFactGrids(records, slugs);
  if (keyFacts.length > 0) {
    blocks.push(...keyFacts.map(markdownTable));
    writeFileSync(path.join(dir, KEY_FACTS_CSV), rowsCsv(keyFactRows(records, slugs)));
    files.push(KEY_FACTS_CSV);
  }
  // Beyond the study, for a folder judged by a model (rescore --judge): its verdicts beside the key facts.
  const judgments = readJudgments(dir, all);
  const judge = judgeGrids(records, judgments);
  if (judge.length > 0) {
    blocks.push(...judge.map(markdownTable));
    writeFileSync(path.join(dir, DERIVED_FILES.judgeCsv), rowsCsv(judgeCsvRows(records, judgments)));
    files.push(DERIVED_FILES.judgeCsv);
  }
  // Beyond the study, against a second folder one of the two run with --withhold (rescore --against).
  if (extras.withholding !== undefined) {
    blocks.push(markdownTable(extras.withholding.grid));
    writeFileSync(path.join(dir, DERIVED_FILES.withholdingCsv), rowsCsv(withholdingCsvRows(extras.withholding)));
    files.push(DERIVED_FILES.withholdingCsv);
  }
  // Beyond the study, for a log with repeated samples or several wordings: their tables.
  const repeats = repeatTables(sets.onePost, slugs);
  if (repeats !== undefined) {
    blocks.push(...repeats.grids.map(markdownTable));
    const csv = repeatCsvRows(repeats);
    writeFileSync(path.join(dir, DERIVED_FILES.repeatsCsv), rowsCsv(csv.repeats));
    writeFileSync(path.join(dir, DERIVED_FILES.pairedRatesCsv), rowsCsv(csv.paired));
    writeFileSync(path.join(dir, DERIVED_FILES.conditionsCsv), rowsCsv(csv.conditions));
    files.push(DERIVED_FILES.repeatsCsv, DERIVED_FILES.pairedRatesCsv, DERIVED_FILES.conditionsCsv);
    if (csv.sensitivity.length > 0) {
      writeFileSync(path.join(dir, DERIVED_FILES.sensitivityCsv), rowsCsv(csv.sensitivity));
      files.push(DERIVED_FILES.sensitivityCsv);
    }
  }
  const markdown = `${blocks.join("\n\n")}\n`;
  writeFileSync(path.join(dir, "tables.md"), markdown);
  return { markdown, files };
}
