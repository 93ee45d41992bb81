// Scores a run folder's answers.jsonl and writes tables.md and the CSV files of every table that applies to it
// (see TABLES), from the folder alone: its log, its manifest, its judgments and its recorded withheld pair.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { progressNotice, readManifest, runInProgress } from "../runs/index.ts";
import type { AnswerRecord } from "../runs/index.ts";
import { TABLES_FILE } from "./derived-files.ts";
import { randomWeightsLabel } from "./random-weights.ts";
import { tableInputs } from "./table-inputs.ts";
import { entryMarkdown, tablesOf } from "./table-list.ts";
import { rowsCsv, type TableContext } from "./tables.ts";
import { withheldNote } from "./withholding-tables.ts";

/**
 * Writes tables.md (its warnings, then every table that applies, in TABLES' order) and each table's CSV files. `all`
 * is the whole log: runs whose call failed are left out of every table (see splitFailed) and counted under each.
 * Returns the markdown it wrote, for printing, and the names of the files it wrote.
 */
export function writeTables(
  dir: string,
  all: readonly AnswerRecord[],
  slugs: readonly string[],
  context: TableContext,
  onNotice: (line: string) => void = console.error,
): { markdown: string; files: string[] } {
  const manifest = readManifest(dir);
  const inputs = tableInputs({ dir, records: all, slugs, context, manifest }, onNotice);
  const blocks: string[] = [...randomWeightsLabel(manifest)];
  const withheld = withheldNote(manifest);
  if (withheld !== undefined) blocks.push(`> **${withheld}**`);
  const progress = runInProgress(dir, manifest, all);
  if (progress !== undefined) blocks.push(`**${progressNotice(progress)}**`);
  const files = [TABLES_FILE];
  const csvFiles: string[] = [];
  for (const entry of tablesOf(inputs)) {
    blocks.push(...entryMarkdown(entry, inputs));
    for (const csv of entry.csv) {
      const rows = csv.rows(inputs);
      if (rows === undefined) continue;
      writeFileSync(path.join(dir, csv.file), rowsCsv(rows));
      csvFiles.push(csv.file);
    }
  }
  const markdown = `${blocks.join("\n\n")}\n`;
  writeFileSync(path.join(dir, TABLES_FILE), markdown);
  return { markdown, files: [...files, ...csvFiles] };
}
