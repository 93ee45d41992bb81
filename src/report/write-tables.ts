// Scores a run folder's answers.jsonl and writes tables.md, study.csv and strict.csv beside it.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { strictRows, studyRows } from "../scoring/index.ts";
import type { AnswerRecord } from "../study/types.ts";
import { rowsCsv, strictTableMarkdown, studyTablesMarkdown, type TableContext } from "./tables.ts";

/** Returns the markdown it wrote, for printing. */
export function writeTables(dir: string, records: readonly AnswerRecord[], slugs: readonly string[], context: TableContext): string {
  const study = studyRows(records);
  const strict = strictRows(records, slugs);
  const markdown = `${studyTablesMarkdown(study, context)}\n\n${strictTableMarkdown(strict)}\n`;
  writeFileSync(path.join(dir, "tables.md"), markdown);
  writeFileSync(path.join(dir, "study.csv"), rowsCsv(study));
  writeFileSync(path.join(dir, "strict.csv"), rowsCsv(strict));
  return markdown;
}
