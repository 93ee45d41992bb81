// What the commands may use from the report stage.
export { modelLabel, studyTablesMarkdown, strictTableMarkdown, rowsCsv, type TableContext } from "./tables.ts";
export { writeTables } from "./write-tables.ts";
