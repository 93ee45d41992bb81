// Which generation_config.json a model decodes by: a file given, the default models' original repositories on the
// hub, or one beside the GGUF; then the decoding it implies for the --repetition-penalty setting. And which
// tokenizer_config.json says the special tokens its replies leave out, found the same way.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../common/index.ts";
import {
  configBeside,
  decodingFor,
  NO_PENALTY,
  readGenerationConfig,
  type GenerationConfigFile,
  type GenerationDecoding,
  type RepetitionPenaltySetting,
} from "./generation-config.ts";
import { hubConfigDir, hubFile, hubGenerationConfig, type CachedHubFile, type HubFileRequest } from "./hub-config.ts";
import { modelsDir, originalRepoOf } from "./model-files.ts";
import { ggufSpecialTokens, readTokenizerConfig, TOKENIZER_CONFIG, type SpecialTokens } from "./special-tokens.ts";

export interface DecodingOptions {
  readonly setting: RepetitionPenaltySetting;
  /** --generation-config: this file, whatever the model. */
  readonly generationConfigFile?: string;
  readonly cacheDir: string;
  /** The hub's address for the default models' configs (default $HF_ENDPOINT or huggingface.co). */
  readonly hubEndpoint?: string;
  readonly onProgress?: (message: string) => void;
}

/**
 * The decoding of model `id` (loaded from `modelPath`). "none" reads nothing. Otherwise the config is, in order:
 * the file given; for the study's two models (and Qwen2.5-Instruct's other sizes), their original repository's file
 * (fetched once; with "auto", failing to fetch it is an error, since decoding without it would not be the study's);
 * a generation_config.json beside the GGUF. None found: no penalty with "auto", the given number otherwise, and
 * llama.cpp's end tokens.
 */
export async function resolveDecoding(
  id: string,
  modelPath: string,
  options: DecodingOptions,
): Promise<GenerationDecoding> {
  if (options.setting === "none") return NO_PENALTY;
  const config = await findConfig(id, modelPath, options);
  return decodingFor(options.setting, config, path.basename(modelPath));
}

async function findConfig(
  id: string,
  modelPath: string,
  options: DecodingOptions,
): Promise<GenerationConfigFile | null> {
  if (options.generationConfigFile !== undefined) return readGenerationConfig(options.generationConfigFile);
  const request = originalRequest(id, options);
  if (request !== undefined) {
    try {
      return await hubGenerationConfig(modelsDir(options.cacheDir), request, options.onProgress);
    } catch (error) {
      if (options.setting === "auto" || !(error instanceof UserError)) throw error;
      options.onProgress?.(`${error.message} Going on with the given penalty and llama.cpp's end tokens.`);
      return null;
    }
  }
  const beside = configBeside(modelPath);
  return beside === undefined ? null : readGenerationConfig(beside);
}

/**
 * The tokens model `id`'s replies leave out, whatever the penalty setting: by its original repository's
 * tokenizer_config.json for the study's models (fetched once, at the generation config's revision), else one beside
 * the GGUF. Without either (offline with nothing cached, or another model), llama.cpp's control tokens, and says why.
 */
export async function resolveSpecialTokens(
  id: string,
  modelPath: string,
  options: Pick<DecodingOptions, "cacheDir" | "hubEndpoint" | "onProgress">,
): Promise<SpecialTokens> {
  const request = originalRequest(id, options);
  if (request !== undefined) {
    const models = modelsDir(options.cacheDir);
    const place = path.join(hubConfigDir(models, request.repo), TOKENIZER_CONFIG);
    let file: CachedHubFile;
    try {
      const hint = `Put it at ${place} to decode as the study did.`;
      file = await hubFile(models, request, TOKENIZER_CONFIG, hint, options.onProgress);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      return ggufSpecialTokens(error.message);
    }
    return readTokenizerConfig(file.path, file.hub);
  }
  const beside = path.join(path.dirname(path.resolve(modelPath)), TOKENIZER_CONFIG);
  if (fs.existsSync(beside)) return readTokenizerConfig(beside, null);
  return ggufSpecialTokens(`no ${TOKENIZER_CONFIG} beside ${path.basename(modelPath)}`);
}

/** The hub request for the original repository of one of the study's models (or Qwen2.5's other sizes). */
function originalRequest(id: string, options: Pick<DecodingOptions, "hubEndpoint">): HubFileRequest | undefined {
  const original = originalRepoOf(id);
  if (original === undefined) return undefined;
  return { ...original, ...(options.hubEndpoint !== undefined ? { endpoint: options.hubEndpoint } : {}) };
}
