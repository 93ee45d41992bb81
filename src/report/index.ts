// What the commands may use from the report stage.
export { modelLabels } from "./model-labels.ts";
export { compareJson, compareText, rescoreJson, rescoreText } from "./analyses.ts";
export { writeTables } from "./write-tables.ts";
export { DERIVED_FILES } from "./derived-files.ts";
export { withheldComparison } from "./withholding-tables.ts";
export { writeReport, renderReportHtml } from "./html.ts";
export { reportData } from "./report-data.ts";
export { readRunFolder, readRunLog, type ReadRun } from "./run-folder.ts";
export { jsonForScript } from "./html-escape.ts";
export { randomWeightModels, randomWeightsWarning } from "./random-weights.ts";
export { writeInspectLogs } from "./write-inspect.ts";
