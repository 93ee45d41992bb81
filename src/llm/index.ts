// What other folders may use from src/llm/.
export { loadModel, checkModel, defaultThreads, DEFAULT_CONTEXT_SIZE } from "./load-model.ts";
export { CONTEXT_FLOOR, parseContextSize } from "./context-fit.ts";
export {
  DEFAULT_MODEL_NAMES,
  QUANTS,
  originalRepoOf,
  defaultModelUri,
  hfLocalFileNames,
  knownFileBytes,
  modelIdFor,
  modelsDir,
  isLocalModelId,
  type Quant,
} from "./model-files.ts";

export { configSampling, parseRepetitionPenalty, type Decoding, type SamplingValues } from "./generation-config.ts";
export type { SpecialTokens } from "./special-tokens.ts";
export { hubConfigDir } from "./hub-config.ts";
export type * from "./types.ts";
export { callFailure } from "./types.ts";
export { openServerModel, SERVER_MODES, type ServerFlags } from "./server-model.ts";
export { serverUrlWithoutCredentials } from "./server-client.ts";
