// What other stages may use from scoring: the lenient and strict scorers, the table rows, and the model judge's
// request, verdict and rows.
export { citesRightLenient } from "./lenient.ts";
export { conditionOf, conditionsOf, conditionSummary } from "./conditions.ts";
export { splitFailed, leftOutNote } from "./failed-runs.ts";
export { cutAtTokenLimit, tokenLimitGroups, tokenLimitNote, type CutRun } from "./token-limit.ts";
export { classifySource, citesRightStrict, type SourceClass } from "./strict.ts";
export {
  studyRows,
  strictRows,
  twoPostRows,
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
  type TwoPostClass,
} from "./two-post.ts";
export { wilson, fewestSignificantFlips, type Proportion } from "./statistics.ts";
export { compareRuns, questionKey, formatP, formatProportion, type Measure, type Comparison } from "./comparisons.ts";
export { explainSource } from "./explain-source.ts";
export { engineeringRows, answerRight, extendedDesign, BOUGHT_DESIGNS, type EngineeringRow } from "./engineering.ts";
export { formatMismatchRows, type FormatMismatchRow } from "./format-mismatch.ts";
export { agentActionRows, type AgentActionsRow } from "./agent-actions.ts";
export { scaleTable, type ModelSize, type ScalePoint, type ScaleTable } from "./scale.ts";
export {
  conditionRows,
  designRateRows,
  pairedRateRows,
  repeatRows,
  sensitivityRows,
  type ConditionRow,
  type DesignRateRow,
  type PairedRateRow,
  type RepeatRow,
  type SensitivityRow,
} from "./repeat-rows.ts";
export { BOOTSTRAP_RESAMPLES, type MeanInterval } from "./repeats.ts";
export { keyFactRows, type KeyFactRow } from "./key-facts.ts";
export { withholdingRows, type WithholdingRow } from "./withholding.ts";
export { judgeRequest, judgeRows, parseVerdict, type JudgeRow } from "./judge.ts";
