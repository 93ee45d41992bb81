// What the two server runtimes share: one call's request and its failures, and the usage an answer reports.
import { UserError } from "../common/index.ts";
import { isDeterministicRefusal, type ServerClient } from "./server-client.ts";
import type { CallFailure, CallRecord, Generation, Sampling } from "./types.ts";

/** The answer's JSON, or the call's failure as a logged record (a server that cannot be reached throws instead). */
export type Posted =
  | { readonly kind: "ok"; readonly json: unknown }
  | { readonly kind: "failed"; readonly error: string; readonly stopReason: CallFailure["stopReason"] };

/**
 * POSTs one call's body. An HTTP error after the retries is a call error (llama-server's
 * `exceed_context_size_error` a context overflow, a refusal that asking again cannot change "refused"); a server
 * that does not answer at all stops the run (or the judge) with a UserError, so that what finished stays logged and
 * the same command resumes.
 */
export async function postCall(client: ServerClient, path: string, body: unknown): Promise<Posted> {
  const reply = await client.post(path, body);
  if (reply.kind === "unreachable") {
    throw new UserError(
      `The server at ${client.baseUrl} did not answer after ${reply.tries} tries (${reply.message}). ` +
        "What finished is logged: start the server and run the same command again to resume.",
    );
  }
  if (reply.kind === "http-error") {
    const overflow = reply.type === "exceed_context_size_error";
    const tried = reply.tries > 1 ? ` (after ${reply.tries} tries)` : "";
    return {
      kind: "failed",
      error: `server: HTTP ${reply.status}${tried}: ${reply.message}`,
      stopReason: overflow ? "context-overflow" : isDeterministicRefusal(reply) ? "refused" : "error",
    };
  }
  return { kind: "ok", json: reply.json };
}

/**
 * The most bytes of text a token can make, generously: a token is a few characters of UTF-8, and JSON escapes can
 * grow one sixfold. A reply past max_tokens times this came from a server that ignored max_tokens.
 */
const BYTES_PER_TOKEN = 64;

/** Why a reply's text is longer than `maxTokens` could make, or undefined. */
export function overlongReply(text: string, maxTokens: number): string | undefined {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= maxTokens * BYTES_PER_TOKEN) return undefined;
  return (
    `the reply's text is ${bytes} bytes, more than max_tokens (${maxTokens}) can make at ${BYTES_PER_TOKEN} bytes ` +
    "a token: the server ignored max_tokens"
  );
}

/** A call that produced no reply: nothing read or generated, and why. */
export function failedGeneration(
  prompt: string,
  error: string,
  seconds: number,
  stopReason: CallFailure["stopReason"] = "error",
  response?: unknown,
): Generation {
  const record: CallRecord = {
    tokensRead: 0,
    tokensEvaluated: undefined,
    tokensGenerated: 0,
    seconds,
    stopReason,
    error,
    ...(response !== undefined ? { response } : {}),
  };
  return { prompt, text: "", record };
}

/** An answer's token counts: `usage.prompt_tokens`, `completion_tokens` and, where reported, `cached_tokens`. */
export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cachedTokens: number | undefined;
}

/**
 * The usage of an OpenAI-style answer, or what is wrong with it. Every count is the server's word, so each must be a
 * whole number of tokens within the context (`contextSize`, 0 when the server did not say it): 1.7e308 would sum to
 * Infinity in the log and 1e300 print as a 301-digit count, so such an answer is a call error, never a count.
 */
export function usageOf(json: Record<string, unknown> | undefined, contextSize: number): Usage | string {
  const usage = asRecord(json?.usage);
  const promptTokens = usage?.prompt_tokens;
  const completionTokens = usage?.completion_tokens;
  if (typeof promptTokens !== "number" || typeof completionTokens !== "number")
    return `the answer has no usage.prompt_tokens and usage.completion_tokens: ${clip(JSON.stringify(json?.usage))}`;
  const limit = contextSize > 0 ? contextSize : Number.MAX_SAFE_INTEGER;
  const within = contextSize > 0 ? `the context size (${contextSize})` : "";
  const wrong =
    countError("usage.prompt_tokens", promptTokens, limit, within) ??
    countError("usage.completion_tokens", completionTokens, limit, within);
  if (wrong !== undefined) return wrong;
  const cached = asRecord(usage?.prompt_tokens_details)?.cached_tokens;
  // vLLM sends null where it keeps no prefix cache: unknown, as when the field is absent.
  if (cached === undefined || cached === null) return { promptTokens, completionTokens, cachedTokens: undefined };
  const cachedWrong = countError(
    "usage.prompt_tokens_details.cached_tokens",
    cached,
    promptTokens,
    `usage.prompt_tokens (${promptTokens})`,
  );
  if (cachedWrong !== undefined) return cachedWrong;
  return { promptTokens, completionTokens, cachedTokens: cached as number };
}

/** Why `value` is not a token count from 0 to `limit` (described as `within`, "" for no bound), or undefined. */
function countError(field: string, value: unknown, limit: number, within: string): string | undefined {
  if (isCount(value) && value <= limit) return undefined;
  const shown = typeof value === "number" ? String(value) : clip(JSON.stringify(value));
  return `${field} is ${shown}, not a whole number of tokens ${within === "" ? "(0 or more)" : `from 0 to ${within}`}`;
}

/** The tokens evaluated after cache reuse: prompt tokens minus cached ones, unknown where the server says nothing. */
function tokensEvaluated(usage: Usage): number | undefined {
  return usage.cachedTokens === undefined ? undefined : usage.promptTokens - usage.cachedTokens;
}

/** The record of a call the server answered: its usage, and "length" as the token cap (any other reason, an end). */
export function answeredRecord(usage: Usage, finishReason: string, seconds: number, response?: unknown): CallRecord {
  return {
    tokensRead: usage.promptTokens,
    tokensEvaluated: tokensEvaluated(usage),
    tokensGenerated: usage.completionTokens,
    seconds,
    stopReason: finishReason === "length" ? "max-tokens" : "eos",
    ...(response !== undefined ? { response } : {}),
  };
}

export const asRecord = (x: unknown): Record<string, unknown> | undefined =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
/** A count a server sent: a whole number, 0 or more, that a JavaScript number holds exactly. */
const isCount = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
export const clip = (text: string | undefined) =>
  text === undefined ? "nothing" : text.length > 200 ? `${text.slice(0, 200)}...` : text;

/**
 * A sampled call's request fields, overriding the greedy ones every request carries (temperature 0, top_k 1, the
 * fixed seed); nothing for a greedy call. llama-server, vLLM and SGLang all take `seed`, `top_k`, `top_p` and
 * `min_p`. min_p 0 is sent because llama-server's own default is 0.05, which the in-process sampler (min-p 0) and
 * Transformers' do_sample (no min-p) do not apply.
 */
export function samplingFields(sampling: Sampling | undefined): Record<string, number> {
  if (sampling === undefined) return {};
  return {
    temperature: sampling.temperature,
    top_k: sampling.topK,
    top_p: sampling.topP,
    min_p: 0,
    seed: sampling.seed,
  };
}
