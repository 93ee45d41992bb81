// What the commands may use from the report stage.
export { modelLabel, strictTableMarkdown, twoPostTableMarkdown } from "./tables.ts";
export { writeTables } from "./write-tables.ts";
export { writeReport, renderReportHtml } from "./html.ts";
export { reportData } from "./report-data.ts";
export { readRunFolder, readRunLog, type ReadRun } from "./run-folder.ts";
export { comparisonsMarkdown } from "./comparisons-text.ts";
export { jsonForScript } from "./html-escape.ts";
export { randomWeightModels, randomWeightsWarning } from "./random-weights.ts";
