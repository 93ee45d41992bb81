// Which generation_config.json a model decodes by: a file given, the default models' original repositories on the
// hub, or one beside the GGUF; then the decoding it implies for the --repetition-penalty setting.
import path from "node:path";
import { UserError } from "../common/index.ts";
import {
  configBeside,
  decodingFor,
  NO_PENALTY,
  readGenerationConfig,
  type Decoding,
  type GenerationConfigFile,
  type RepetitionPenaltySetting,
} from "./generation-config.ts";
import { hubGenerationConfig } from "./hub-config.ts";
import { modelsDir, originalRepoOf } from "./model-files.ts";

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
export async function resolveDecoding(id: string, modelPath: string, options: DecodingOptions): Promise<Decoding> {
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
  const original = originalRepoOf(id);
  if (original !== undefined) {
    const request = {
      ...original,
      ...(options.hubEndpoint !== undefined ? { endpoint: options.hubEndpoint } : {}),
    };
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
