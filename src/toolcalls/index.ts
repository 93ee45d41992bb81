// The tool-call formats: how each model family writes its calls and reads results back, and what a reply's calls are.
export { modelDialect } from "./detect.ts";
export type { ToolDialect } from "./dialect.ts";
export { DIALECTS, describeFormats, dialectOf, type RunFormat, TOOL_FORMATS, type ToolFormat } from "./formats.ts";
export { FORCED_PREFIX, hermes } from "./hermes.ts";
export { looksForeign } from "./mismatch.ts";
export { openaiChat } from "./openai-chat.ts";
export { ignoredCallBlocks } from "./tool-call-blocks.ts";
