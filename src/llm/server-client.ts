// HTTP to an OpenAI-compatible server: JSON requests with a timeout, retried with backoff when the server cannot be
// reached, times out, is rate limited (429) or fails (5xx). The API key travels in a header and nowhere else: every
// text that comes back from here, a server's or an error's, has it redacted.
import { REDACTED, redactJson, redactText } from "./redact.ts";
import { UserError } from "../common/index.ts";

/** How requests to a server are made. */
export interface ServerClientOptions {
  /**
   * The OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1 (a URL without /v1 gets it appended). A user and
   * password in it (http://user:pw@host/v1) are sent as a Basic Authorization header instead.
   */
  readonly baseUrl: string;
  /** Sent as "Authorization: Bearer <key>"; never logged nor recorded. */
  readonly apiKey?: string;
  /** Seconds one request may take before it is abandoned and retried. */
  readonly timeoutSeconds: number;
  /** Tries after the first one. */
  readonly retries: number;
  /** Milliseconds before the first retry; each next wait doubles (default 500). */
  readonly backoffMs?: number;
  /** Told about each retry (meant for stderr). */
  readonly onRetry?: (message: string) => void;
  /** The flags that gave the URL and the key's variable, for messages (default --server and --api-key-env). */
  readonly flags?: { readonly url: string; readonly apiKeyEnv: string };
}

/** The outcome of one request, its retries included. */
export type ServerReply =
  | { readonly kind: "ok"; readonly status: number; readonly json: unknown }
  /** The server answered, with an error status (after retries when it was 429 or 5xx), or with something not JSON. */
  | {
      readonly kind: "http-error";
      readonly status: number;
      readonly message: string;
      /** The error's "type" when the body says one (llama-server: "exceed_context_size_error"). */
      readonly type?: string;
      readonly tries: number;
    }
  /** Every try failed to connect or timed out. */
  | { readonly kind: "unreachable"; readonly message: string; readonly tries: number };

/**
 * llama-server's 500s that asking again cannot change. For a reply that is not valid UTF-8: its final parse of every
 * completion (the chat parser, in "Content-only" format even on /v1/completions) fails on a malformed byte sequence,
 * and greedy decoding writes the same bytes again. In chat mode, for messages holding a call whose arguments are not
 * JSON (a call the model cut short, sent back as the server returned it): the same messages fail the same way.
 */
const DETERMINISTIC_REFUSAL = /does not match the expected .* format|Failed to parse tool call arguments as JSON/;

/** Whether a server's error is one of DETERMINISTIC_REFUSAL's: never retried, logged as a "refused" call. */
export function isDeterministicRefusal(reply: { readonly status: number; readonly message: string }): boolean {
  return reply.status >= 500 && DETERMINISTIC_REFUSAL.test(reply.message);
}

/**
 * What is read of one reply at most. A study reply is a few hundred tokens; a server that ignored max_tokens sent
 * 100 MB ones, which grew the log past what a JavaScript string holds.
 */
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;

export class ServerClient {
  /** The base URL, ending in /v1. */
  readonly baseUrl: string;
  /** The server's root (the base URL without /v1): llama-server's /props and /health live there. */
  readonly rootUrl: string;
  /** The Authorization header's value, if any. */
  private readonly authorization: string | undefined;
  /** What must never be written or printed: the key, the URL's password, and Basic's encoding of it. */
  private readonly secrets: readonly string[];

  constructor(private readonly options: ServerClientOptions) {
    const { url, user, password } = splitCredentials(options.baseUrl);
    const flags = options.flags ?? { url: "--server", apiKeyEnv: "--api-key-env" };
    if (user !== undefined && options.apiKey !== undefined)
      throw new UserError(
        `${flags.url} ${withoutPassword(options.baseUrl)} carries credentials and ${flags.apiKeyEnv} gives a key: ` +
          "a request has one Authorization header: give one or the other",
      );
    const trimmed = url.replace(/\/+$/, "");
    this.baseUrl = trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
    this.rootUrl = this.baseUrl.slice(0, -"/v1".length);
    const basic = user !== undefined ? Buffer.from(`${user}:${password}`).toString("base64") : undefined;
    this.authorization =
      options.apiKey !== undefined ? `Bearer ${options.apiKey}` : basic !== undefined ? `Basic ${basic}` : undefined;
    // The secret part of each header value: "Bearer [redacted]" still says which header a server echoed.
    this.secrets = [options.apiKey, basic, password].filter((x): x is string => x !== undefined && x !== "");
  }

  /**
   * `text` with every secret replaced by [redacted], as written and in any spelling JSON allows, so that a server
   * echoing its Authorization header ("Incorrect API key provided: Bearer sk-...") leaks it into no log and no terminal.
   */
  private redact(text: string): string {
    return redactText(text, this.secrets);
  }

  /** POST `body` to `path` under the base URL (e.g. "/completions"). */
  post(path: string, body: unknown): Promise<ServerReply> {
    return this.request(`${this.baseUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
  }

  /** GET an absolute URL once, without retries: for what a server may or may not expose (/props, /v1/models). */
  async probe(url: string): Promise<unknown | undefined> {
    const reply = await this.request(url, { method: "GET" }, 0);
    return reply.kind === "ok" ? reply.json : undefined;
  }

  private async request(url: string, init: { method: string; body?: string }, retries = this.options.retries) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.authorization !== undefined) headers.authorization = this.authorization;
    let wait = this.options.backoffMs ?? 500;
    for (let tries = 1; ; tries++) {
      const reply = await this.once(url, { ...init, headers }, tries);
      const retriable =
        reply.kind === "unreachable" ||
        (reply.kind === "http-error" &&
          (reply.status === 429 || reply.status >= 500) &&
          !isDeterministicRefusal(reply));
      if (!retriable || tries > retries) return reply;
      const what = reply.kind === "unreachable" ? reply.message : `HTTP ${reply.status}: ${reply.message}`;
      this.options.onRetry?.(`${init.method} ${url}: ${what}; try ${tries + 1} of ${retries + 1} in ${wait} ms`);
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait *= 2;
    }
  }

  private async once(
    url: string,
    init: { method: string; body?: string; headers: Record<string, string> },
    tries: number,
  ): Promise<ServerReply> {
    let response: Response;
    let text: string | undefined;
    try {
      // a timer takes whole milliseconds: Node refuses 1000.5 with a RangeError that would read as the server's fault
      const signal = AbortSignal.timeout(Math.max(1, Math.round(this.options.timeoutSeconds * 1000)));
      response = await fetch(url, { ...init, signal });
      text = await readCapped(response, MAX_REPLY_BYTES);
    } catch (error) {
      return { kind: "unreachable", message: this.redact(networkReason(error, this.options.timeoutSeconds)), tries };
    }
    // Not retried: the same request would bring the same reply.
    if (text === undefined) {
      const message = `the reply is longer than ${MAX_REPLY_BYTES} bytes, the most read from a server`;
      return { kind: "http-error", status: response.status, message, tries };
    }
    text = this.redact(text);
    let json: unknown;
    try {
      // the decoded strings too: escapes can spell a key in ways no pattern on the raw text lists (a split surrogate)
      json = redactJson(JSON.parse(text), this.secrets);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const type = ((json as { error?: { type?: unknown } } | undefined)?.error as { type?: unknown } | undefined)
        ?.type;
      const message = errorMessage(json, text);
      return {
        kind: "http-error",
        status: response.status,
        message,
        tries,
        ...(typeof type === "string" ? { type } : {}),
      };
    }
    if (json === undefined)
      return { kind: "http-error", status: response.status, message: `not JSON: ${clip(text)}`, tries };
    return { kind: "ok", status: response.status, json };
  }
}

/** A URL's user and password (percent-decoded) and the URL without them; a URL that does not parse is left to fetch. */
function splitCredentials(raw: string): { url: string; user?: string; password?: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { url: raw };
  }
  if (url.username === "" && url.password === "") return { url: raw };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = "";
  url.password = "";
  return { url: url.href, user, password };
}

/** A server URL as it may be recorded or printed: without its user and password. */
export function serverUrlWithoutCredentials(raw: string): string {
  return splitCredentials(raw).url;
}

/** A URL as it may be printed beside an error about its credentials: the user kept, the password redacted. */
function withoutPassword(raw: string): string {
  const { url, user } = splitCredentials(raw);
  if (user === undefined) return url;
  const at = url.indexOf("//") + 2;
  return `${url.slice(0, at)}${encodeURIComponent(user)}:${REDACTED}@${url.slice(at)}`;
}

/** The reply's body as text, or undefined once it passes `cap` bytes (the rest is not read). */
async function readCapped(response: Response, cap: number): Promise<string | undefined> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks).toString("utf8");
    bytes += value.byteLength;
    if (bytes > cap) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
}

/** Why a request got no answer, in one line: the timeout, or the connection's own error code. */
function networkReason(error: unknown, timeoutSeconds: number): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `no answer within ${timeoutSeconds} s`;
  if (e.cause?.code === "UND_ERR_HEADERS_TIMEOUT") return "no answer within 300 s (Node's fetch limit)";
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message} (${cause})` : e.message;
}

/** The error text of an OpenAI-style error body ({"error": {"message": ...}}), else the body itself, clipped. */
function errorMessage(json: unknown, text: string): string {
  const error = (json as { error?: unknown } | undefined)?.error;
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : clip(text);
}

const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}...` : text);
