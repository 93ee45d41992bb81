// What other folders may use from src/llm/.
export { loadModel, checkModel, defaultThreads, DEFAULT_CONTEXT_SIZE, type LoadModelOptions } from "./load-model.ts";
export {
  DEFAULT_MODELS,
  DEFAULT_MODEL_NAMES,
  QUANTS,
  defaultModelOf,
  originalRepoOf,
  defaultModelUri,
  hfLocalFileNames,
  knownFileBytes,
  modelIdFor,
  modelsDir,
  resolveModelFiles,
  splitParts,
  type Quant,
  type ModelFiles,
} from "./model-files.ts";
export { compileChatTemplate, renderChatPrompt, type ChatTemplate } from "./chat-template.ts";
export { DEFAULT_MAX_TOKENS } from "./sequence-runtime.ts";
export {
  NO_PENALTY,
  parseRepetitionPenalty,
  readGenerationConfig,
  type Decoding,
  type GenerationConfigFile,
  type RepetitionPenaltySetting,
} from "./generation-config.ts";
export { hubGenerationConfig, hubConfigDir } from "./hub-config.ts";
export type * from "./types.ts";
export { callFailure } from "./types.ts";
export { openServerModel, SERVER_MODES, type ServerMode, type ServerModelOptions } from "./server-model.ts";
