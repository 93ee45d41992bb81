// A run's settings, defined once: as command-line options, typed from those definitions, written to the manifest in
// snake_case and read back from it. Adding a setting is one entry in SETTING_OPTIONS (CONTRIBUTING.md says how).
import type { InferredOptionTypes, Options } from "yargs";
import { parseContextSize, parseRepetitionPenalty, SERVER_MODES, serverUrlWithoutCredentials } from "../llm/index.ts";
import { RETRIEVER_KINDS } from "../search/index.ts";
import { describeFormats, TOOL_FORMATS } from "../toolcalls/index.ts";
import { WITHHOLD_MODES } from "../designs/index.ts";
import { SPLIT_DEPTH } from "../corpus/index.ts";
import { describeRange, inRange, type NumberRange, rangeProblem } from "../common/index.ts";

/** The study's cap on new tokens per model call. */
export const STUDY_MAX_NEW_TOKENS = 200;

/**
 * Who reads a setting's value, beyond the manifest and the resume check, each under the setting's camelCase name: the
 * run recipe (how a model's runs are made), the runner (how they are scheduled), or the options a model is opened
 * with, in this process (`local`) or at a --server (`server`). The recipe's and runner's settings types, and what
 * the model opener passes on, are the settings tagged so.
 */
type SettingUse = "recipe" | "runner" | "local" | "server";

/**
 * A setting's yargs option; for a number its range: what the runtime takes (llama.cpp's int32 fields, a seed of 32
 * bits, a plan that fits in memory), checked on the flag, on the manifest's field and so by `audit`; who reads it
 * (`usedBy`). `input` marks a setting that shapes a run's inputs (the blog as read, or its search index):
 * openRunInputs reads it, and the commands that read a blog or search it take its flag too.
 */
type SettingOption = Options & {
  readonly range?: NumberRange;
  readonly input?: InputKind;
  readonly usedBy?: readonly SettingUse[];
};

/** What a setting of a run's inputs shapes: the blog as its sections are read, or the search over them. */
type InputKind = "blog" | "index";

const INT32_MAX = 2 ** 31 - 1;
/** Tokens of context (and so new tokens) a runtime is asked for at most: 2^20, past any GGUF's trained length. */
const TOKENS_MAX = 2 ** 20;
/** llama.cpp's context size is a uint32: a larger one is refused here, a smaller one that cannot be allocated there. */
const CONTEXT_MAX = 2 ** 32 - 1;

/**
 * Every setting that can change an answer, as yargs options. Runs in one folder must share them all: the manifest
 * records them and a resume with any other value is refused. Keys are the flag names.
 */
export const SETTING_OPTIONS = {
  "split-depth": {
    input: "blog",
    type: "number",
    default: SPLIT_DEPTH,
    range: { whole: true, min: 1, max: 6 },
    describe:
      "The deepest heading that starts a section (the study's 3: #, ## and ###); a deeper heading stays a line of " +
      "its parent section",
  },
  retriever: {
    input: "index",
    choices: RETRIEVER_KINDS,
    default: "hybrid",
    describe: "bm25, dense (MiniLM) or hybrid (reciprocal rank fusion of both)",
  },
  "embedding-model": {
    input: "index",
    type: "string",
    default: "Xenova/all-MiniLM-L6-v2",
    describe: "Embedding model: a Hugging Face hub id or a local folder (unused with --retriever bm25)",
  },
  "embedding-dtype": {
    input: "index",
    choices: ["fp32", "fp16", "q8"],
    default: "fp32",
    describe: "Embedding model weights to load",
  },
  parallel: {
    type: "number",
    default: 1,
    usedBy: ["runner"],
    range: { whole: true, min: 1, max: 256 },
    describe: "Questions generated at once, one sequence each",
  },
  "reuse-cache": {
    type: "boolean",
    default: true,
    usedBy: ["runner", "server"],
    describe:
      "Reuse each sequence's KV cache across calls (--no-reuse-cache evaluates every prompt from scratch, as the study did)",
  },
  "shared-context": {
    type: "boolean",
    default: false,
    usedBy: ["runner"],
    describe:
      "Batch the --parallel sequences on one context (faster on a GPU; greedy near-ties may flip: check with audit)",
  },
  "max-new-tokens": {
    type: "number",
    default: STUDY_MAX_NEW_TOKENS,
    usedBy: ["recipe"],
    range: { whole: true, min: 1, max: TOKENS_MAX },
    describe: "New tokens per call at most (the study's 200)",
  },
  gpu: {
    type: "boolean",
    default: true,
    usedBy: ["local"],
    describe: "Use a GPU when one is found (--no-gpu forces the CPU)",
  },
  threads: {
    type: "number",
    usedBy: ["local"],
    range: { whole: true, min: 1, max: 1024 },
    describe:
      "CPU threads for llama.cpp (default: 1 for models under 256 MiB, else every math core; the manifest records the count used)",
  },
  "context-size": {
    default: "auto",
    usedBy: ["local"],
    coerce: parseContextSize,
    range: { whole: true, min: 1, max: CONTEXT_MAX, word: "auto" },
    describe:
      "Context size in tokens per sequence: auto fits it to the free memory (GPU or RAM), from what the run's calls " +
      "need (4096, or the folder's largest logged call) up to the model's trained length; or a number, used as given",
  },
  "chat-template": {
    type: "string",
    usedBy: ["local", "server"],
    describe: "Jinja chat template file, for a model whose GGUF has none",
  },
  "repetition-penalty": {
    type: "string",
    default: "auto",
    usedBy: ["local", "server"],
    coerce: parseRepetitionPenalty,
    describe:
      "auto: the penalty and end tokens of the model's generation_config.json, as the study's Transformers code " +
      "decoded (none found: no penalty); none: pure greedy; or a number",
  },
  "tool-format": {
    choices: ["auto", ...TOOL_FORMATS],
    default: "auto",
    usedBy: ["recipe"],
    describe: `How the agent's tool calls are written and read: auto (from the model's chat template), ${describeFormats()}`,
  },
  thinking: {
    type: "boolean",
    default: false,
    usedBy: ["recipe"],
    describe:
      "For models whose chat template has a thinking switch (Qwen3's enable_thinking): think before answering. " +
      "Off by default; <think> blocks are logged but kept out of answers and tool-call parsing",
  },
  "generation-config": {
    type: "string",
    usedBy: ["local", "server"],
    describe:
      "A generation_config.json to decode by (default: the study models' own from the hub, or one beside the GGUF)",
  },
  server: {
    type: "string",
    describe:
      "Run the models on an OpenAI-compatible server at this base URL (e.g. http://127.0.0.1:8080/v1) instead of " +
      "in this process; --model then names the server's model id",
  },
  "server-mode": {
    choices: SERVER_MODES,
    default: "completions",
    describe:
      "With --server: completions renders each prompt with the model's chat template here, as the in-process " +
      "runtime does, and sends the text to /v1/completions; chat sends the messages and tools to " +
      "/v1/chat/completions, where the server's template and parser make the calls (the forced design asks for " +
      'tool_choice "required")',
  },
  "api-key-env": {
    type: "string",
    usedBy: ["server"],
    describe: "With --server: the environment variable holding the server's API key (the key is never logged)",
  },
  samples: {
    type: "number",
    default: 1,
    usedBy: ["recipe"],
    // each sample is a planned run held in memory: 10,000 of 30 questions and 4 designs is 1.2 million
    range: { whole: true, min: 1, max: 10_000 },
    describe:
      "Runs of each (model, design, wording, question): 1 is the study's one greedy pass; more sample " +
      "(see --sampling) and are logged as samples 0..K-1",
  },
  seed: {
    type: "number",
    default: 0,
    usedBy: ["recipe"],
    range: { whole: true, min: 0, max: 0xffffffff },
    describe: "With sampling: each run's seed is derived from this and the run's key, and logged on its line",
  },
  sampling: {
    choices: ["auto", "model", "greedy"],
    default: "auto",
    usedBy: ["recipe"],
    describe:
      "model: the model's generation_config.json temperature, top_p and top_k (Transformers' do_sample=True); " +
      "greedy: the study's decoding; auto: model with --samples above 1 or a sampling value given, else greedy",
  },
  temperature: {
    type: "number",
    usedBy: ["recipe"],
    range: { whole: false, min: 0, above: true, max: 100 },
    describe: "With sampling: this temperature instead of the model's",
  },
  "top-p": {
    type: "number",
    usedBy: ["recipe"],
    range: { whole: false, min: 0, above: true, max: 1 },
    describe: "With sampling: this top_p instead of the model's (1: off)",
  },
  "top-k": {
    type: "number",
    usedBy: ["recipe"],
    range: { whole: true, min: 0, max: INT32_MAX },
    describe: "With sampling: this top_k instead of the model's (0: off)",
  },
  withhold: {
    choices: WITHHOLD_MODES,
    default: "none",
    usedBy: ["recipe"],
    describe:
      "Beyond the study, the withheld-source test: leave each question's gold section (gold) or its whole post " +
      "(gold-post) out of the index its runs search and read, so that a right citation is one made without seeing it",
  },
} as const satisfies Record<string, SettingOption>;

/**
 * Settings beyond the study that the manifest leaves out while they hold their default: a manifest written before
 * them reads as their default, and a run at their defaults writes the manifest it wrote before.
 */
const LEFT_OUT_AT_DEFAULT = [
  "split-depth",
  "samples",
  "seed",
  "sampling",
  "temperature",
  "top-p",
  "top-k",
  "withhold",
] as const satisfies readonly (keyof typeof SETTING_OPTIONS)[];
type LeftOut = (typeof LEFT_OUT_AT_DEFAULT)[number];

type SettingKey = keyof typeof SETTING_OPTIONS;
type Parsed = InferredOptionTypes<typeof SETTING_OPTIONS>;
type CamelCase<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<CamelCase<B>>}` : S;
type SnakeCase<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${SnakeCase<B>}` : S;

/** The one record of a run's settings, as the command line gave them (camelCase, like yargs' own keys). */
export type RunSettings = { readonly [K in SettingKey as CamelCase<K>]: Parsed[K] };

type UsedBy<U extends SettingUse> = {
  [K in SettingKey]: (typeof SETTING_OPTIONS)[K] extends { readonly usedBy: readonly (infer X)[] }
    ? U extends X
      ? K
      : never
    : never;
}[SettingKey];

/** The settings `use` reads (SettingUse), by their RunSettings names. */
export type SettingsFor<U extends SettingUse> = Pick<RunSettings, CamelCase<UsedBy<U>>>;

/**
 * The same settings as the manifest stores them: snake_case, null for "not set" (this is a file format); the
 * settings of LEFT_OUT_AT_DEFAULT are absent at their default.
 */
export type SettingFields = {
  readonly [K in Exclude<SettingKey, LeftOut> as SnakeCase<K>]: Exclude<Parsed[K], undefined> | null;
} & { readonly [K in LeftOut as SnakeCase<K>]?: Exclude<Parsed[K], undefined> | null };

export const SETTING_KEYS = Object.keys(SETTING_OPTIONS) as SettingKey[];
const camelCase = (key: string) => key.replace(/-(.)/g, (_, c: string) => c.toUpperCase());
const snakeCase = (key: string) => key.replaceAll("-", "_");

/** The settings whose entry says they shape the run's `kind` of input, by flag. */
type InputKey<Kind extends InputKind> = {
  [K in SettingKey]: (typeof SETTING_OPTIONS)[K] extends { readonly input: Kind } ? K : never;
}[SettingKey];

/** The settings that shape how a run's blog is read into sections (the flags every command that reads it takes). */
export type BlogSettings = Pick<RunSettings, CamelCase<InputKey<"blog">>>;
/** The settings that shape the search over the blog (the flags of the commands that search it). */
export type IndexSettings = Pick<RunSettings, CamelCase<InputKey<"index">>>;

/** The entries of the settings that shape the run's `kind` of input, as yargs options for the commands that read it. */
export function inputSettingOptions<Kind extends InputKind>(
  kind: Kind,
): { readonly [K in InputKey<Kind>]: (typeof SETTING_OPTIONS)[K] } {
  const entries = Object.entries(SETTING_OPTIONS).filter(([, option]) => "input" in option && option.input === kind);
  return Object.fromEntries(entries) as { readonly [K in InputKey<Kind>]: (typeof SETTING_OPTIONS)[K] };
}

/**
 * The settings every option left at its default, with `changes` on top: what the tests and the model judge run under,
 * and what a folder without a manifest is read with.
 */
export function defaultSettings(changes: Partial<RunSettings> = {}): RunSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) out[camelCase(key)] = defaultOf(key);
  return { ...(out as RunSettings), ...changes };
}

/** Picks the settings out of parsed command-line arguments (which carry every other option too). */
export function settingsFromArgs(argv: RunSettings): RunSettings {
  const out: Record<string, unknown> = {};
  const values: Readonly<Record<string, unknown>> = argv;
  for (const key of SETTING_KEYS) out[camelCase(key)] = values[camelCase(key)];
  return out as RunSettings;
}

/** The settings `use` reads, those not set left out: what a model opener passes on as its options. */
export function settingsFor<U extends SettingUse>(settings: RunSettings, use: U): SettingsFor<U> {
  const out: Record<string, unknown> = {};
  const values: Readonly<Record<string, unknown>> = settings;
  for (const key of SETTING_KEYS) {
    const option: SettingOption = SETTING_OPTIONS[key];
    const value = values[camelCase(key)];
    if (option.usedBy?.includes(use) && value !== undefined) out[camelCase(key)] = value;
  }
  return out as SettingsFor<U>;
}

/** The manifest's form. With bm25 no embedding model is loaded, so its two settings are recorded as null. */
export function settingFields(settings: RunSettings): SettingFields {
  const out: Record<string, unknown> = {};
  const values: Readonly<Record<string, unknown>> = settings;
  for (const key of SETTING_KEYS) out[snakeCase(key)] = values[camelCase(key)] ?? null;
  for (const key of LEFT_OUT_AT_DEFAULT)
    if ((values[camelCase(key)] ?? null) === (defaultOf(key) ?? null)) delete out[snakeCase(key)];
  if (settings.retriever === "bm25") Object.assign(out, { embedding_model: null, embedding_dtype: null });
  // A password in --server is the user's secret, not a setting: the manifest records where the server is.
  if (settings.server !== undefined) out.server = serverUrlWithoutCredentials(settings.server);
  return out as SettingFields;
}

/** The inverse of settingFields, for audit and resume checks: null becomes the option's default (or undefined). */
export function settingsFromFields(fields: SettingFields): RunSettings {
  const out: Record<string, unknown> = {};
  const values: Readonly<Record<string, unknown>> = fields;
  for (const key of SETTING_KEYS) out[camelCase(key)] = values[snakeCase(key)] ?? defaultOf(key);
  return out as RunSettings;
}

/** The setting's range, for a number setting that has one. */
function rangeOf(key: SettingKey): NumberRange | undefined {
  const option: SettingOption = SETTING_OPTIONS[key];
  return option.range;
}

/**
 * Why the command line's value of a setting cannot be used ("--top-k must be a whole number from 0 to 2147483647,
 * got 4294967297"); undefined if it can, or is not set.
 */
export function settingValueProblem(key: SettingKey, value: unknown): string | undefined {
  const range = rangeOf(key);
  return range === undefined ? undefined : rangeProblem(key, range, value);
}

/** Why `value` cannot be the manifest's field for `key`, judged from the option's own definition; undefined if it can. */
export function settingFieldProblem(field: string, value: unknown): string | undefined {
  const key = SETTING_KEYS.find((k) => snakeCase(k) === field);
  if (key === undefined) return undefined;
  if (value === null) return undefined;
  const option: Options = SETTING_OPTIONS[key];
  const range = rangeOf(key);
  if (range !== undefined) return inRange(range, value) ? undefined : `${describeRange(range)} or null`;
  // A coerced option's stored value is whatever its coerce function returns: any JSON value may be right.
  if (option.coerce) return undefined;
  if (option.choices)
    return option.choices.includes(value as string) ? undefined : `one of ${option.choices.join(", ")} or null`;
  return typeof value === option.type ? undefined : `a ${option.type} or null`;
}

/** The manifest fields a settings record has, in order. */
export const SETTING_FIELDS: readonly string[] = SETTING_KEYS.map(snakeCase);

/** Whether the manifest leaves `field` out at its default (so that a manifest without it still reads). */
export function isLeftOutAtDefault(field: string): boolean {
  return LEFT_OUT_AT_DEFAULT.some((key) => snakeCase(key) === field);
}

function defaultOf(key: SettingKey): unknown {
  const option: Options = SETTING_OPTIONS[key];
  return option.default;
}

/**
 * One model of a suite or a --models file: a short label, the model (a .gguf path, an hf: URI, or the server's model
 * id with --server), its size in billions of parameters, and the settings it sets for itself alone (its tool-call
 * format: a family whose template cannot be placed, or one run in another format on purpose).
 */
export interface ModelEntry {
  readonly id: string;
  readonly model: string;
  readonly paramsB: number;
  readonly toolFormat?: RunSettings["toolFormat"];
}

/** An entry as the models file and the manifest write it (snake_case; tool_format null when the run's applies). */
export interface ModelEntryFields {
  readonly id: string;
  readonly params_b: number;
  readonly tool_format: RunSettings["toolFormat"] | null;
}

/** The settings a model entry may set for itself, by their manifest field: each checked as the run's own is. */
export const MODEL_SETTING_FIELDS = ["tool_format"] as const;

/** One model's settings: the run's, with what its entry sets on top (none: the run's as they are). */
export function settingsForModel<S extends Partial<Pick<RunSettings, "toolFormat">>>(
  settings: S,
  entry: Pick<ModelEntry, "toolFormat"> | undefined,
): S {
  return entry?.toolFormat === undefined ? settings : { ...settings, toolFormat: entry.toolFormat };
}

/** The manifest's record of an entry: what labels the model in the report and places it on the scale chart. */
export function modelEntryFields(entry: ModelEntry): ModelEntryFields {
  return { id: entry.id, params_b: entry.paramsB, tool_format: entry.toolFormat ?? null };
}
