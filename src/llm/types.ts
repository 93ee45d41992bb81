// The records and interfaces of the model runtime: chat messages, calls, their token accounting.
import type { ContextFit } from "./context-fit.ts";
import type { ChatTemplate } from "./chat-template.ts";
import type { Decoding } from "./generation-config.ts";

export type Role = "system" | "user" | "assistant" | "tool";

/**
 * A chat message as the chat template sees it. Assistant content is the raw reply, tool calls included (the study's
 * way). Some templates take more: structured `tool_calls` with ids and the `tool_call_id` a result answers (Mistral's),
 * or a system message's own `tools` text (Phi-4-mini's). Absent fields are not passed to the template at all.
 */
export interface ChatMessage {
  readonly role: Role;
  readonly content: string;
  readonly tool_calls?: readonly MessageToolCall[];
  readonly tool_call_id?: string;
  readonly tools?: string;
}

/** One call in an assistant message's `tool_calls`, as OpenAI's API and Hugging Face templates spell it. */
export interface MessageToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: unknown };
}

/** An OpenAI-style function schema, passed to the chat template as `tools`. */
export interface ToolSchema {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: {
      readonly type: "object";
      readonly properties: Readonly<Record<string, { readonly type: string; readonly description?: string }>>;
      readonly required: readonly string[];
    };
  };
}

/**
 * One model call's accounting, tagged by why it stopped: it ended ("eos") or reached its token cap with a reply, or
 * it failed with the error: its prompt did not fit ("context-overflow"), a server refused what the request carries, so
 * that sending it again fails again ("refused"), or anything else ("error"). Errors are records, not exceptions: a
 * run's failure is logged on its line.
 */
export type CallRecord = CallCost & CallEnding;

/** Why a call stopped, with the error when it failed. */
export type CallEnding = { readonly stopReason: "eos" | "max-tokens" } | CallFailure;

/** A call that produced no usable reply, and why. */
export interface CallFailure {
  readonly stopReason: "context-overflow" | "refused" | "error";
  readonly error: string;
}

/** The error of a call that produced no usable reply, else undefined. */
export function callFailure(record: CallRecord): string | undefined {
  return "error" in record ? record.error : undefined;
}

/** What a call cost, whatever its outcome. */
export interface CallCost {
  /** Tokens of the whole rendered prompt, forced prefix included: the study's "tokens read". */
  readonly tokensRead: number;
  /**
   * Prompt tokens actually evaluated after KV-cache reuse (tokensRead minus the reused prefix, plus any tokens
   * llama.cpp had to evaluate again); the reply's own tokens are not counted. Undefined where the runtime cannot tell.
   */
  readonly tokensEvaluated: number | undefined;
  readonly tokensGenerated: number;
  readonly seconds: number;
  /**
   * Tokens of the tool block the chat template rendered (the prompt with the request's tools minus the prompt without
   * them): the schemas a tool-calling model re-reads on every call. Undefined for a call without tools, or where the
   * runtime cannot tell.
   */
  readonly toolBlockTokens?: number;
  /** The server's whole answer, as received: logged for every call of a chat-mode run (--server-mode chat). */
  readonly response?: unknown;
}

export interface GenerateRequest {
  readonly messages: readonly ChatMessage[];
  /** Tool schemas rendered into the system prompt by the chat template; omit for a call without tools. */
  readonly tools?: readonly ToolSchema[];
  /** Text the reply is forced to start with (the study's "<tool_call>\n"). */
  readonly prefix?: string;
  /** New tokens at most (default 200, the study's). */
  readonly maxTokens?: number;
  /** Beyond the study: decode the reply (after the prefix) under a constraint. */
  readonly constraint?: GenerateConstraint;
  /**
   * Control tokens whose text stays in the reply (a tool-call format's markers: Mistral's [TOOL_CALLS], Llama's
   * <|python_tag|>); every other control token is dropped from it. A string that is not one token is ignored.
   */
  readonly keepTokens?: readonly string[];
  /** The template's `enable_thinking` (Qwen3 and others); undefined: not passed, so the template's own default. */
  readonly enableThinking?: boolean;
  /**
   * A chat-mode server's `tool_choice`: "required" asks the server to make the reply a tool call (what the forced
   * design's prefix stands in for). Only a runtime that sends the tools to the server can honour it.
   */
  readonly toolChoice?: "required";
  /** Beyond the study: sample the reply with these values; undefined: greedy, as the study decoded. */
  readonly sampling?: Sampling;
}

/**
 * Seeded sampling, in the terms of Transformers' generate(do_sample=True): a temperature above 0, top_k (0: off)
 * and top_p (1: off); the repetition penalty is the model's decoding, as in greedy runs. The same seed and prompt
 * give the same reply on the same runtime.
 */
export interface Sampling {
  readonly temperature: number;
  readonly topK: number;
  readonly topP: number;
  /** An unsigned 32-bit integer. */
  readonly seed: number;
}

/**
 * "tool-call": the reply, after the prefix, can only be one call of one of the request's tools in the format the
 * study's pattern reads: `{"name": ..., "arguments": {...}}` with json.dumps spacing, every argument a string of at
 * most `maxStringChars` characters, then "\n</tool_call>" and the end of the reply. What an API's
 * tool_choice "required" gives its users.
 */
export interface GenerateConstraint {
  readonly kind: "tool-call";
  readonly maxStringChars: number;
}

export interface Generation {
  /** The rendered prompt, prefix included. */
  readonly prompt: string;
  /** The reply, starting with the forced prefix if there was one; control tokens dropped, <tool_call> kept. */
  readonly text: string;
  readonly record: CallRecord;
  /**
   * The calls a chat-mode server parsed out of the reply, as it returned them (its `message.tool_calls`), in order;
   * undefined where the runtime returns text only and the calls are the parser's business.
   */
  readonly toolCalls?: readonly MessageToolCall[];
  /**
   * The body a server was sent for this call, as sent (the API key travels in a header, never here); undefined in
   * process. The runs' log leaves it out (the manifest records the fields every request carries); the judge logs it.
   */
  readonly sent?: Readonly<Record<string, unknown>>;
  /**
   * Where the runtime can time them apart (in process): seconds from starting to evaluate the prompt to the first new
   * token, and from there to the last one (one decoding step for each new token after the first). Not logged: the
   * benchmark reads them.
   */
  readonly timing?: { readonly promptSeconds: number; readonly decodeSeconds: number };
}

/** One model call at a time; a runtime owns one context sequence (and its KV cache). */
export interface ChatRuntime {
  generate(request: GenerateRequest): Promise<Generation>;
}

/** What produced the numbers: goes into run manifests. */
export interface ModelInfo {
  /** What the user passed: a path or an hf: URI. */
  readonly id: string;
  /** Local path of the (first) model file. */
  readonly path: string;
  readonly files: readonly { readonly path: string; readonly bytes: number }[];
  readonly architecture: string;
  /** The GGUF's general.name, when it has one: the generated test models say "blogqa random ..." there. */
  readonly name?: string;
  readonly chatTemplateSha256: string;
  readonly backend: string; // "cuda" | "vulkan" | "metal" | "cpu"
  readonly gpuLayers: number;
  readonly deviceNames: readonly string[];
  readonly nodeLlamaCppVersion: string;
  readonly llamaCppRelease: string;
  /**
   * Which llama.cpp binary ran in process: node-llama-cpp's prebuilt one, or a local build (`npm run build:cpu`), with
   * the CMake options it was built with. Absent for a server, and in manifests written before it was recorded.
   */
  readonly binary?: {
    readonly buildType: "prebuilt" | "localBuild";
    readonly cmakeOptions: Readonly<Record<string, string>>;
    /**
     * llama.cpp's own line on what the binary was compiled with (`llama_print_system_info`: the CPU features, OpenMP,
     * llamafile's kernels); absent in manifests written before it was recorded.
     */
    readonly systemInfo?: string;
  };
  /** Tokens per sequence the model's contexts hold. */
  readonly contextSize: number;
  /** In process: how contextSize was chosen (fitted to free memory, or as --context-size gave it); absent on a server. */
  readonly contextFit?: ContextFit;
  /** Repetition penalty, end tokens and the generation_config.json they came from. */
  readonly decoding: Decoding;
  /** CPU threads the model computes with (split between its contexts when --parallel opens several). */
  readonly threads: number;
  /** Set when the model runs on an OpenAI-compatible server (backend "server") instead of in this process. */
  readonly server?: ServerInfo;
}

/** What a run on a server records: where, how it asked, and what the server said about itself. No API key. */
export interface ServerInfo {
  /** The base URL, ending in /v1. */
  readonly url: string;
  /** completions: blogqa renders prompts and parses calls; chat: the server does both (/v1/chat/completions). */
  readonly mode: "completions" | "chat";
  /** "llama-server" when it answered /props, else "openai" (vLLM, SGLang, Ollama...): picks the penalty's name. */
  readonly flavor: "llama-server" | "openai";
  /** The environment variable the API key was read from, or null. */
  readonly apiKeyEnv: string | null;
  readonly timeoutSeconds: number;
  readonly retries: number;
  /** The most bytes read of one reply; a longer one is a call error. */
  readonly maxReplyBytes: number;
  /**
   * Every body field of a request besides model, max_tokens and what each call carries (completions: the prompt;
   * chat: the messages, and on calls with tools the tools and a forced call's tool_choice).
   */
  readonly requestParameters: Readonly<Record<string, unknown>>;
  /** llama-server's /props (its chat templates left out), or null where the server has none. */
  readonly props: Readonly<Record<string, unknown>> | null;
  /** The server's /v1/models answer. */
  readonly models: unknown;
}

export interface RuntimeOptions {
  /** Keep each sequence's KV cache between calls, so a prompt that extends the last one evaluates only new tokens. */
  readonly reuseCache: boolean;
  /**
   * Put all `count` runtimes on one context (one batch per step) instead of one context each. Faster on a GPU,
   * but greedy outputs then depend on which calls share a batch: near-ties can flip (1-2 of 64 tiny-model
   * outputs differed from one-at-a-time). Default false: each runtime decodes exactly as a lone one would.
   */
  readonly sharedContext?: boolean;
}

export interface LoadedModel {
  readonly info: ModelInfo;
  /** The chat template prompts are rendered with (the study reads its tool-call format from it). */
  readonly template: ChatTemplate;
  /** `count` runtimes that may generate at the same time, each with its own sequence. */
  openRuntimes(count: number, options: RuntimeOptions): Promise<ChatRuntime[]>;
  /** Render a request's prompt (chat template, tools, prefix) without generating. */
  renderPrompt(request: GenerateRequest): string;
  countTokens(text: string): number;
  /**
   * In process: a short warm-up on a context of its own (a fixed prompt, then a few greedy tokens) that measures
   * this device's prompt and decode speed for the run's time estimate. Undefined where a runtime cannot time it.
   */
  measureSpeed?(): Promise<SpeedSample>;
  dispose(): Promise<void>;
}

/** A warm-up's measured speeds, in tokens per second, and what was measured. */
export interface SpeedSample {
  readonly promptTokens: number;
  readonly promptTokensPerSecond: number;
  readonly decodeTokens: number;
  readonly decodeTokensPerSecond: number;
}
