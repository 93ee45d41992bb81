// A run: its settings and models, the plan, the runner, the answer log, the manifest, the lock and the audit, and the
// model judge's log of verdicts on a run's answers.
export {
  ANSWERS_FILE,
  locateAnswerLog,
  readAnswerLog,
  runKey,
  tornLineNotice,
} from "./answer-log.ts";
export {
  type AnswerRecord,
  type OnePostAnswer,
  type TwoPostAnswer,
  goldHeadingsOf,
  goldPostsOf,
  isTwoPostAnswer,
} from "./answer-types.ts";
export { auditRunFolder, auditText } from "./audit.ts";

export { MANIFEST_FILE, type RunManifest, readManifest } from "./manifest.ts";
export { readModelsFile } from "./models-file.ts";
export { runStudy, failedRunsError } from "./runner.ts";
export {
  type ModelEntry,
  SETTING_OPTIONS,
  STUDY_MAX_NEW_TOKENS,
  settingsFromArgs,
  settingsFromFields,
} from "./settings.ts";
export { openRunInputs, runSearchOptions } from "./run-inputs.ts";
export { SUITES, SUITE_NAMES, suiteModels } from "./suites.ts";
export { runStudyFolder } from "./study.ts";
export {
  judgeable,
  judgeRunFolder,
  JUDGE_TIMEOUT_SECONDS,
  type GoldSection,
} from "./judge-runs.ts";
export { renderLoggedPrompts, type ExportedPrompt } from "./export-prompts.ts";
export { loggedRunCount, openRunFolder } from "./run-folder.ts";
export { WITHHELD_PAIR_FILE, readWithheldPair, recordWithheldPair } from "./withheld-pair.ts";
export { checkFolderReading, mixedReadings } from "./blog-reading.ts";
export {
  readJudgments,
  type JudgeRequest,
  type JudgeVerdict,
  type Judgment,
} from "./judgment-log.ts";
export { progressNotice, runInProgress, type RunProgress } from "./run-progress.ts";
export { SCHEMAS_DIR, jsonSchemaFiles } from "./json-schemas.ts";
