// What other stages may use from scoring: the lenient and strict scorers and the table rows.
export { citesAny, citesRightLenient } from "./lenient.ts";
export { classifySource, citesRightStrict, citationGrounded, SOURCE_CLASSES, type SourceClass, type SourceVerdict } from "./strict.ts";
export { studyRows, strictRows, groupRuns, type StudyRow, type StrictRow } from "./summary.ts";
