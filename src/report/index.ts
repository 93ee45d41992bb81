// What the commands may use from the report stage.
export { modelLabels } from "./model-labels.ts";
export { compareJson, compareText, rescoreJson, rescoreText } from "./analyses.ts";
export { writeTables } from "./write-tables.ts";
export { DERIVED_FILES } from "./derived-files.ts";
export { withheldComparison } from "./withholding-tables.ts";
export { writeReport } from "./html.ts";
export { readRunFolder, readRunLog } from "./read-run-folder.ts";
export { writeInspectLogs } from "./write-inspect.ts";
