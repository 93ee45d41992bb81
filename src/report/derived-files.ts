// Every file the analysis derives from a run folder: run --fresh removes them first, and docs/run-folder.md lists them.
import { TABLES } from "./table-list.ts";

export const TABLES_FILE = "tables.md";
export const REPORT_FILE = "report.html";
/** `export --format inspect`'s folder of Inspect logs. */
export const INSPECT_FOLDER = "inspect";

/** tables.md, every table's CSV files, the page and the Inspect logs. */
export const DERIVED_FILES: readonly string[] = [
  TABLES_FILE,
  ...TABLES.flatMap((e) => e.csv.map((c) => c.file)),
  REPORT_FILE,
  INSPECT_FOLDER,
];
