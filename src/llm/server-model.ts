// A model served by an OpenAI-compatible server (llama-server, vLLM, SGLang, Ollama) as a LoadedModel. In
// "completions" mode the harness renders each prompt with the model's chat template itself, exactly as the
// in-process runtime does, and sends the raw text to /v1/completions, greedy. In "chat" mode the messages and tools go
// to /v1/chat/completions, the server renders and parses them, as for any API user, with the same greedy parameters.
import fs from "node:fs";
import path from "node:path";
import { environment, UserError } from "../common/index.ts";
import { compileChatTemplate, renderChatPrompt, type ChatTemplate, type TemplateTokens } from "./chat-template.ts";
import { decodingFor, NO_PENALTY, readGenerationConfig, type GenerationDecoding } from "./generation-config.ts";
import type { RepetitionPenaltySetting } from "./generation-config.ts";
import { resolveDecoding } from "./resolve-decoding.ts";
import { DEFAULT_MODELS } from "./model-files.ts";
import { MAX_REPLY_BYTES, ServerClient } from "./server-client.ts";
import { asRecord } from "./server-answer.ts";
import { ChatServerRuntime } from "./server-chat-runtime.ts";
import { ServerRuntime } from "./server-completions-runtime.ts";
import type { SpecialTokens } from "./special-tokens.ts";
import type { ChatRuntime, GenerateRequest, LoadedModel, ModelInfo, RuntimeOptions, ServerInfo } from "./types.ts";

export const SERVER_MODES = ["completions", "chat"] as const;
export type ServerMode = (typeof SERVER_MODES)[number];

/** The fixed seed sent with every request, for servers whose sampling draws from one even at temperature 0. */
export const SERVER_SEED = 0;

export interface ServerModelOptions {
  /** The OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1. */
  readonly url: string;
  /** The server's model id (the "model" field of each request). */
  readonly model: string;
  readonly mode: ServerMode;
  /** The environment variable holding the API key (its name is recorded, never its value). */
  readonly apiKeyEnv?: string;
  readonly timeoutSeconds: number;
  readonly retries: number;
  /** Milliseconds before the first retry (default 500), doubling after each. */
  readonly backoffMs?: number;
  /** A Jinja chat template file; default: the one the server reports (llama-server's /props). */
  readonly chatTemplate?: string;
  readonly repetitionPenalty: RepetitionPenaltySetting;
  readonly generationConfig?: string;
  /** llama-server's cache_prompt: reuse a slot's KV cache for the prompt's common prefix (--reuse-cache). */
  readonly reuseCache: boolean;
  readonly cacheDir: string;
  readonly onProgress?: (message: string) => void;
  /**
   * What to check when no server answers, after "No OpenAI-compatible server answered at URL: " (default: --server,
   * that the server runs, --api-key-env): a command that read the URL from a file says so, since its user never typed it.
   */
  readonly unreachableHint?: string;
  /** The flags that gave the URL, the key's variable and the model id, for messages (default --server's). */
  readonly flags?: ServerFlags;
}

/** The command-line flags a server's URL, key variable and model id came from. */
export interface ServerFlags {
  readonly url: string;
  readonly apiKeyEnv: string;
  readonly model: string;
}

const SERVER_FLAGS: ServerFlags = { url: "--server", apiKeyEnv: "--api-key-env", model: "--model" };

/**
 * Asks the server what it is (llama-server's /props, /v1/models), finds the chat template and the decoding, and
 * returns a LoadedModel whose runtimes send requests to it. Throws a UserError naming the URL when the server
 * cannot be reached or has no such model.
 */
export async function openServerModel(options: ServerModelOptions): Promise<LoadedModel> {
  const report = options.onProgress ?? (() => {});
  const flags = options.flags ?? SERVER_FLAGS;
  const apiKey = readApiKey(options.apiKeyEnv, flags.apiKeyEnv);
  const client = new ServerClient({
    baseUrl: options.url,
    flags,
    timeoutSeconds: options.timeoutSeconds,
    retries: options.retries,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {}),
    onRetry: (m) => report(`server: ${m}`),
  });
  const models = await client.probe(`${client.baseUrl}/models`);
  if (models === undefined) {
    const hint =
      options.unreachableHint ??
      "check --server (a base URL such as http://127.0.0.1:8080/v1), that the server is running, and --api-key-env " +
        "if it needs a key";
    throw new UserError(`No OpenAI-compatible server answered at ${client.baseUrl}/models: ${hint}`);
  }
  const ids = modelIds(models);
  if (ids.length > 0 && !ids.includes(options.model)) {
    throw new UserError(
      `The server at ${client.baseUrl} serves ${ids.join(", ")}, not ${options.model}: check ${flags.model}`,
    );
  }
  // llama-server describes itself at /props (its chat template, build, context); other servers answer 404.
  const props = asRecord(await client.probe(`${client.rootUrl}/props`));
  const flavor: ServerInfo["flavor"] =
    props !== undefined && "default_generation_settings" in props ? "llama-server" : "openai";
  const template = serverTemplate(options.chatTemplate, props, client.baseUrl, options.mode);
  const decoding = { ...(await serverDecoding(options)), specialTokens: serverSpecialTokens(flavor) };
  report(`server ${client.baseUrl} (${flavor}), model ${options.model}: ${decoding.note}`);
  if (decoding.stopTokens !== null)
    report(
      `server: the generation config's eos_token_id [${decoding.stopTokens.join(", ")}] cannot be sent; ` +
        "the server ends replies on its own end-of-generation tokens",
    );
  const generation = asRecord(props?.default_generation_settings);
  // A context size that is not a whole number of tokens is not believed: unknown (0), as when none is reported.
  const contextSize =
    Number.isSafeInteger(generation?.n_ctx) && (generation?.n_ctx as number) > 0 ? (generation?.n_ctx as number) : 0;
  const requestParameters = completionParameters(flavor, decoding.repetitionPenalty, options.reuseCache, contextSize);
  const tokens: TemplateTokens = {
    ...(typeof props?.bos_token === "string" ? { bos_token: props.bos_token } : {}),
    ...(typeof props?.eos_token === "string" ? { eos_token: props.eos_token } : {}),
  };
  const server: ServerInfo = {
    url: client.baseUrl,
    mode: options.mode,
    flavor,
    apiKeyEnv: options.apiKeyEnv ?? null,
    timeoutSeconds: options.timeoutSeconds,
    retries: options.retries,
    maxReplyBytes: MAX_REPLY_BYTES,
    requestParameters,
    props: props === undefined ? null : withoutTemplates(props),
    models,
  };
  const info: ModelInfo = {
    id: options.model,
    path: `${client.baseUrl} ${options.model}`,
    files: [],
    architecture: "unknown (served)",
    chatTemplateSha256: template.sha256,
    backend: "server",
    gpuLayers: 0,
    deviceNames: [],
    nodeLlamaCppVersion: "",
    llamaCppRelease: typeof props?.build_info === "string" ? props.build_info : "unknown",
    contextSize,
    decoding,
    threads: 0,
    server,
  };
  return new ServerModel(client, template, tokens, info, requestParameters);
}

/** The body fields every /v1/completions request carries besides model, prompt and max_tokens: greedy decoding. */
export function completionParameters(
  flavor: ServerInfo["flavor"],
  penalty: number | null,
  reuseCache: boolean,
  contextSize: number,
): Readonly<Record<string, unknown>> {
  const greedy = { temperature: 0, top_k: 1, seed: SERVER_SEED, stream: false };
  // The penalty is always sent, 1 meaning none: vLLM otherwise takes the defaults of the model's generation_config.json.
  if (flavor === "llama-server") {
    // The penalty sees the whole context (a slot's n_ctx from /props: the API refuses -1), prompt included, as
    // Transformers' rule does: llama-server feeds a slot's prompt tokens to its penalty sampler.
    const rule = { repeat_penalty: penalty ?? 1, repeat_last_n: contextSize };
    return { ...greedy, ...rule, frequency_penalty: 0, presence_penalty: 0, cache_prompt: reuseCache };
  }
  // vLLM and SGLang take Transformers' name for it.
  return { ...greedy, repetition_penalty: penalty ?? 1 };
}

class ServerModel implements LoadedModel {
  constructor(
    private readonly client: ServerClient,
    readonly template: ChatTemplate,
    private readonly tokens: TemplateTokens,
    readonly info: ModelInfo,
    private readonly parameters: Readonly<Record<string, unknown>>,
  ) {}

  renderPrompt(request: GenerateRequest): string {
    if (this.info.server?.mode === "chat")
      throw new UserError("In --server-mode chat the server renders the prompts: use --server-mode completions");
    return renderChatPrompt(this.template, request, this.tokens);
  }

  countTokens(): number {
    throw new UserError("Counting tokens needs the model's tokenizer: use a local .gguf, not --server");
  }

  async openRuntimes(count: number, options: RuntimeOptions): Promise<ChatRuntime[]> {
    if (!Number.isInteger(count) || count < 1) throw new UserError(`Need at least one runtime, got ${count}`);
    // cache_prompt is llama-server's switch for reusing a slot's KV cache; other servers ignore it.
    const llamaServer = this.info.server?.flavor === "llama-server";
    const parameters = llamaServer ? { ...this.parameters, cache_prompt: options.reuseCache } : this.parameters;
    if (this.info.server?.mode === "chat")
      return Array.from(
        { length: count },
        () => new ChatServerRuntime(this.client, this.info.id, parameters, this.info.contextSize),
      );
    const render = (r: GenerateRequest) => this.renderPrompt(r);
    return Array.from(
      { length: count },
      () =>
        new ServerRuntime(
          this.client,
          this.info.id,
          render,
          parameters,
          this.info.contextSize,
          this.info.server?.flavor,
        ),
    );
  }

  async dispose(): Promise<void> {}
}

/**
 * The template to render with: a file given, else the server's (llama-server's /props "chat_template"). In chat mode
 * the server renders, and a template only tells whether the model thinks: none known is an empty one.
 */
function serverTemplate(
  file: string | undefined,
  props: Record<string, unknown> | undefined,
  url: string,
  mode: ServerMode,
) {
  if (file !== undefined) {
    if (!fs.existsSync(file)) throw new UserError(`No chat template file at ${path.resolve(file)}`);
    return compileChatTemplate(fs.readFileSync(file, "utf8"), file);
  }
  const source = props?.chat_template;
  if ((typeof source !== "string" || source.trim() === "") && mode === "chat")
    return compileChatTemplate("", `nowhere: the server at ${url} renders the prompts in chat mode`);
  if (typeof source !== "string" || source.trim() === "") {
    throw new UserError(
      `The server at ${url} does not report its chat template (llama-server does at /props): ` +
        "pass the model's template with --chat-template FILE",
    );
  }
  return compileChatTemplate(source, `the /props of the server at ${url}`);
}

/**
 * The decoding as for a local model, without a GGUF to look beside: --generation-config, or the study models'
 * original repository's file when --model names one of them (qwen2.5-1.5b, Qwen/Qwen2.5-3B-Instruct, ...).
 */
async function serverDecoding(options: ServerModelOptions): Promise<GenerationDecoding> {
  if (options.repetitionPenalty === "none") return NO_PENALTY;
  const given = options.generationConfig;
  if (given !== undefined) return decodingFor(options.repetitionPenalty, readGenerationConfig(given), options.model);
  const lower = options.model.toLowerCase();
  const known = DEFAULT_MODELS.find((m) => m.name === lower || m.original.repo.toLowerCase() === lower);
  if (known === undefined) return decodingFor(options.repetitionPenalty, null, options.model);
  return resolveDecoding(known.name, options.model, {
    setting: options.repetitionPenalty,
    cacheDir: options.cacheDir,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

/**
 * The server decodes a reply's tokens by its own rule, and only its text comes back. llama-server's differs from the
 * study's where llama.cpp made control tokens of tokens Qwen2.5's tokenizer does not mark special (<|fim_prefix|>,
 * <|file_sep|>): it drops their text, where the study and the in-process runtime keep it.
 */
function serverSpecialTokens(flavor: ServerInfo["flavor"]): SpecialTokens {
  const rule =
    flavor === "llama-server"
      ? "llama-server leaves out llama.cpp's control tokens (the GGUF's token types)"
      : "vLLM and SGLang skip the special tokens of the model's own tokenizer (skip_special_tokens)";
  return { source: "server", note: `the server decodes replies: ${rule}` };
}

/** The API key in the environment variable `variable` names (given by `flag`); none without one. */
export function readApiKey(variable: string | undefined, flag = "--api-key-env"): string | undefined {
  if (variable === undefined) return undefined;
  const key = environment()[variable];
  if (key === undefined || key === "") throw new UserError(`${flag} ${variable}: that variable is not set`);
  return key;
}

/** The model ids of a /v1/models answer ({"data": [{"id": ...}]}). */
function modelIds(models: unknown): string[] {
  const data = asRecord(models)?.data;
  return Array.isArray(data)
    ? data.map((m) => asRecord(m)?.id).filter((id): id is string => typeof id === "string")
    : [];
}

/** /props without its templates (the manifest records the template's sha256) and UI settings. */
function withoutTemplates(props: Record<string, unknown>): Record<string, unknown> {
  const { chat_template: _a, chat_template_tool_use: _b, ui_settings: _c, ...rest } = props;
  return rest;
}
