// What other stages may use from scoring: the lenient and strict scorers and the table rows.
export { citesAny, citesRightLenient } from "./lenient.ts";
export {
  classifySource,
  citesRightStrict,
  citationGrounded,
  SOURCE_CLASSES,
  type SourceClass,
  type SourceVerdict,
} from "./strict.ts";
export {
  studyRows,
  strictRows,
  twoPostRows,
  groupRuns,
  splitQuestionSets,
  type StudyRow,
  type StrictRow,
  type TwoPostRow,
  type QuestionSet,
} from "./summary.ts";
export {
  classifyTwoPostSource,
  citesRightExact,
  explainTwoPostSource,
  foundAll,
  foundAny,
  TWO_POST_CLASSES,
  type TwoPostClass,
  type TwoPostVerdict,
} from "./two-post.ts";
export {
  wilson,
  mcnemarExact,
  binomialHalfCdf,
  fewestSignificantFlips,
  pairedComparison,
  Z_95,
  type Proportion,
  type PairedComparison,
} from "./statistics.ts";
export {
  compareRuns,
  formatP,
  formatProportion,
  MEASURES,
  type Measure,
  type Arm,
  type Comparison,
} from "./comparisons.ts";
export { explainSource } from "./explain-source.ts";
export { engineeringRows, answerRight, extendedDesign, BOUGHT_DESIGNS, type EngineeringRow } from "./engineering.ts";
export { formatMismatchRows, type FormatMismatchRow } from "./format-mismatch.ts";
export {
  scaleTable,
  type ModelSize,
  type ScalePoint,
  type ScaleTest,
  type ScaleTable,
} from "./scale.ts";
