// Tool-call dialects: one module per model family's format (see dialect.ts for what each one says).
export {
  TOOL_FORMATS,
  binderOf,
  type ForcedCall,
  type RunFormat,
  type ToolDialect,
  type ToolFormat,
} from "./dialect.ts";
export { hermes } from "./hermes.ts";
export { llama3 } from "./llama3.ts";
export { mistral, mistralCallId } from "./mistral.ts";
export { mistralV11 } from "./mistral-v11.ts";
export { phi4 } from "./phi4.ts";
export { openaiChat } from "./openai-chat.ts";
export { emulated, emulatedDialect, hermesToolInstructions } from "./emulated.ts";
export {
  detectDialect,
  dialectOf,
  modelDialect,
  resolveDialect,
  DIALECTS,
  type DetectedDialect,
} from "./detect.ts";
export { foreignCallReplies, looksForeign } from "./mismatch.ts";
