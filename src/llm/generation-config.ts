// The decoding the study's Transformers code used: the repetition penalty and end tokens of the model's
// generation_config.json, found beside the GGUF, given as a file, or fetched from the model's original repository.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../common/index.ts";
import { sha256Hex } from "../common/index.ts";
import { ggufSpecialTokens, type SpecialTokens } from "./special-tokens.ts";

/** `--repetition-penalty`: "auto" reads the model's generation_config.json, "none" is pure greedy, or a number. */
export type RepetitionPenaltySetting = "auto" | "none" | number;

/** Where a generation_config.json came from on the hub. */
export interface HubSource {
  readonly repo: string;
  /**
   * A commit: pinned, or the one the hub named when the file was first fetched; "unknown" when it named none (a
   * mirror that drops X-Repo-Commit), never the branch asked for.
   */
  readonly revision: string;
}

/** The generation_config.json a run read. */
export interface GenerationConfigFile {
  readonly path: string;
  readonly sha256: string;
  /** Set when the file was fetched from the hub (the cached copy keeps saying where from). */
  readonly hub: HubSource | null;
  /** `repetition_penalty`; undefined when the file has none (Transformers' default, 1.0: no penalty). */
  readonly repetitionPenalty: number | undefined;
  /** `eos_token_id` as a list; undefined when the file has none. */
  readonly eosTokenIds: readonly number[] | undefined;
}

/**
 * Transformers' own defaults for a generation_config.json that sets no sampling value (GenerationConfig's
 * temperature 1.0, top_k 50, top_p 1.0).
 */
const TRANSFORMERS_SAMPLING = { temperature: 1, topK: 50, topP: 1 } as const;

/** What a run samples with, before its seed: a config's values, each a flag's where one was given. */
export interface SamplingValues {
  readonly temperature: number;
  readonly topK: number;
  readonly topP: number;
  /** Where the values came from, for the run's progress line. */
  readonly note: string;
}

/**
 * The values Transformers' generate(do_sample=True) would sample with for a model decoding by `decoding`: its
 * generation_config.json's temperature, top_k and top_p, Transformers' defaults for those it lacks (and for all
 * without a config: --repetition-penalty none reads none). Example: Qwen2.5-1.5B-Instruct's file gives 0.7, 20, 0.8.
 */
export function configSampling(decoding: Pick<Decoding, "generationConfig">): SamplingValues {
  const file = decoding.generationConfig?.path;
  if (file === undefined)
    return { ...TRANSFORMERS_SAMPLING, note: "no generation_config.json: Transformers' defaults" };
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  const value = (key: string, fallback: number) => {
    const v = json[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0)
      throw new UserError(`${file}: ${key} must be a number of at least 0, got ${JSON.stringify(v)}`);
    return v;
  };
  return {
    temperature: value("temperature", TRANSFORMERS_SAMPLING.temperature),
    topK: value("top_k", TRANSFORMERS_SAMPLING.topK),
    topP: value("top_p", TRANSFORMERS_SAMPLING.topP),
    note: `the sampling values of ${file}`,
  };
}

/** How a model decodes: recorded in the run's manifest. */
export interface Decoding {
  readonly setting: RepetitionPenaltySetting;
  /** The penalty applied by Transformers' rule, or null for none (a penalty of 1 is none). */
  readonly repetitionPenalty: number | null;
  /** The generation_config.json read, or null when none was (setting "none", or none found). */
  readonly generationConfig: Omit<GenerationConfigFile, "repetitionPenalty" | "eosTokenIds"> | null;
  /** The token ids that end a reply (the config's eos_token_id), or null for llama.cpp's end-of-generation set. */
  readonly stopTokens: readonly number[] | null;
  /** Said once on stderr and kept in the manifest: why there is no penalty, or where it came from. */
  readonly note: string;
  /** Which tokens a reply's text leaves out, and the tokenizer_config.json that says so (special-tokens.ts). */
  readonly specialTokens: SpecialTokens;
}

/** What a generation config decides: everything but the special tokens, which the tokenizer's config decides. */
export type GenerationDecoding = Omit<Decoding, "specialTokens">;

/**
 * Pure greedy with llama.cpp's end tokens and control tokens: the harness's decoding before it read generation and
 * tokenizer configs.
 */
export const NO_PENALTY: Decoding = {
  setting: "none",
  repetitionPenalty: null,
  generationConfig: null,
  stopTokens: null,
  note: "no repetition penalty (--repetition-penalty none)",
  specialTokens: ggufSpecialTokens("no tokenizer config read"),
};

/** Parses `--repetition-penalty`: auto, none, or a positive number. */
export function parseRepetitionPenalty(value: string): RepetitionPenaltySetting {
  if (value === "auto" || value === "none") return value;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0) {
    throw new UserError(`--repetition-penalty must be auto, none or a positive number, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** Reads and checks a generation_config.json; a bad file is one error line naming it. */
export function readGenerationConfig(file: string, hub: HubSource | null = null): GenerationConfigFile {
  const resolved = path.resolve(file);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(resolved);
  } catch (error) {
    throw new UserError(
      `cannot read the generation config ${resolved}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new UserError(
      `${resolved} is not valid JSON (${(error as Error).message}); give a model's generation_config.json`,
    );
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new UserError(`${resolved} is not a JSON object; give a model's generation_config.json`);
  }
  const record = json as Record<string, unknown>;
  const penalty = record.repetition_penalty;
  if (
    penalty !== undefined &&
    penalty !== null &&
    (typeof penalty !== "number" || !Number.isFinite(penalty) || penalty <= 0)
  ) {
    throw new UserError(`${resolved}: repetition_penalty must be a positive number, got ${JSON.stringify(penalty)}`);
  }
  const eos = record.eos_token_id;
  const eosList = eos === undefined || eos === null ? undefined : Array.isArray(eos) ? eos : [eos];
  if (
    eosList !== undefined &&
    (eosList.length === 0 || !eosList.every((t) => Number.isInteger(t) && (t as number) >= 0))
  ) {
    throw new UserError(`${resolved}: eos_token_id must be a token id or a list of them, got ${JSON.stringify(eos)}`);
  }
  return {
    path: resolved,
    sha256: sha256Hex(bytes),
    hub,
    repetitionPenalty: typeof penalty === "number" ? penalty : undefined,
    eosTokenIds: eosList as number[] | undefined,
  };
}

/**
 * The decoding for a setting and the config found (or null). auto: the config's penalty (none when the file has
 * none, or no file was found); a number: that penalty; both end replies on the config's eos_token_id when there is
 * one. Example: decodingFor("auto", {repetitionPenalty: 1.1, eosTokenIds: [151645, 151643], ...}) applies 1.1.
 */
export function decodingFor(
  setting: RepetitionPenaltySetting,
  config: GenerationConfigFile | null,
  modelName: string,
): GenerationDecoding {
  if (setting === "none") return NO_PENALTY;
  const penalty = setting === "auto" ? (config?.repetitionPenalty ?? 1) : setting;
  const repetitionPenalty = penalty === 1 ? null : penalty;
  const from =
    config === null ? "" : ` (${config.hub ? `${config.hub.repo}@${config.hub.revision}, ` : ""}${config.path})`;
  let note: string;
  if (setting !== "auto") note = `repetition penalty ${penalty} (--repetition-penalty)`;
  else if (config === null) note = `no generation_config.json beside ${modelName} or given: no repetition penalty`;
  else
    note =
      config.repetitionPenalty === undefined
        ? `the generation config${from} sets no repetition_penalty: no repetition penalty`
        : `repetition penalty ${penalty} from the generation config${from}`;
  return {
    setting,
    repetitionPenalty,
    generationConfig: config === null ? null : { path: config.path, sha256: config.sha256, hub: config.hub },
    stopTokens: config?.eosTokenIds ?? null,
    note,
  };
}

/** The generation_config.json beside a model file, or undefined. */
export function configBeside(modelPath: string): string | undefined {
  const beside = path.join(path.dirname(path.resolve(modelPath)), "generation_config.json");
  return fs.existsSync(beside) ? beside : undefined;
}
