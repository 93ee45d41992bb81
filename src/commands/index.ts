// What cli.ts may use from the commands: each file's function that registers its commands on the command line,
// in the order --help lists them, the checks of every command's arguments, and, for the bench, where caches live by
// default.
export { corpusCommands } from "./corpus.ts";
export { searchCommands } from "./search.ts";
export { embedderCommands } from "./embedder.ts";
export { llmCommands } from "./llm.ts";
export { studyCommands } from "./study.ts";
export { smokeCommands } from "./smoke.ts";
export { reportCommands } from "./report.ts";
export { auditCommands } from "./audit.ts";
export { parseCallsCommands } from "./parse-calls.ts";
export { exportPromptsCommands } from "./export-prompts.ts";
export { checkPathKinds, defaultCacheDir } from "./options.ts";
export { usageError } from "./usage-errors.ts";
