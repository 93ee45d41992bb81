// What the commands may use from the report stage.
export {
  modelLabel,
  studyTablesMarkdown,
  strictTableMarkdown,
  twoPostTableMarkdown,
  rowsCsv,
  type TableContext,
} from "./tables.ts";
export { writeTables, TABLE_FILES, TWO_POST_CSV } from "./write-tables.ts";
export { writeReport, renderReportHtml, REPORT_FILE } from "./html.ts";
export { reportData, type ReportData, type ReportRun } from "./report-data.ts";
export {
  readRunFolder,
  readRunLog,
  DEFAULT_CONTENT_DIR,
  type ReadRunOptions,
  type ReadRun,
} from "./run-folder.ts";
export { comparisonsMarkdown, MEASURE_LABELS } from "./comparisons-text.ts";
export { escapeHtml, jsonForScript } from "./html-escape.ts";
export { randomWeightModels, randomWeightsWarning } from "./random-weights.ts";
