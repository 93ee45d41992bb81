// One chat request to an OpenAI-compatible server and the text of its reply, for what asks a model outside the study's
// runs (the model judge): the --server client's retries, credentials and redaction, and a failure as one line.
import { asRecord, clip } from "./server-answer.ts";
import { ServerClient } from "./server-client.ts";
import { readApiKey } from "./server-model.ts";

export interface ChatEndpointOptions {
  /** The OpenAI-compatible base URL (credentials in it are sent as Basic authorization, never recorded). */
  readonly url: string;
  /** The environment variable holding the API key. */
  readonly apiKeyEnv?: string | undefined;
  readonly timeoutSeconds: number;
  readonly retries: number;
  /** Milliseconds before the first retry (default 500), doubling after each. */
  readonly backoffMs?: number;
  readonly onRetry?: (message: string) => void;
  /** The flags that gave the URL and the key's variable, for messages. */
  readonly flags: { readonly url: string; readonly apiKeyEnv: string };
}

/**
 * The reply's text (choices[0].message.content; null where the server sent null, or no content at all beside a
 * message) with the server's whole answer; or why there is none, in words that follow "the server at URL".
 */
export type ChatReply =
  | { readonly kind: "ok"; readonly text: string | null; readonly json: unknown }
  | { readonly kind: "failed"; readonly message: string };

export interface ChatEndpoint {
  /** The base URL, ending in /v1, without any user or password: what may be logged and printed. */
  readonly url: string;
  /** POSTs `body` to /chat/completions, retrying a connection error, a timeout, 429 and 5xx. */
  chat(body: unknown): Promise<ChatReply>;
}

export function openChatEndpoint(options: ChatEndpointOptions): ChatEndpoint {
  const apiKey = readApiKey(options.apiKeyEnv, options.flags.apiKeyEnv);
  const client = new ServerClient({
    baseUrl: options.url,
    timeoutSeconds: options.timeoutSeconds,
    retries: options.retries,
    flags: options.flags,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {}),
    ...(options.onRetry !== undefined ? { onRetry: options.onRetry } : {}),
  });
  return {
    url: client.baseUrl,
    async chat(body) {
      const reply = await client.post("/chat/completions", body);
      const tried = reply.kind !== "ok" && reply.tries > 1 ? ` (after ${reply.tries} tries)` : "";
      if (reply.kind === "unreachable") return { kind: "failed", message: `did not answer${tried}: ${reply.message}` };
      if (reply.kind === "http-error")
        return { kind: "failed", message: `answered HTTP ${reply.status}${tried}: ${reply.message}` };
      const choices = asRecord(reply.json)?.choices;
      const message = asRecord(Array.isArray(choices) ? choices[0] : undefined)?.message;
      const content = asRecord(message)?.content;
      if (asRecord(message) === undefined || (content !== undefined && content !== null && typeof content !== "string"))
        return {
          kind: "failed",
          message: `sent an answer without a choices[0].message.content text: ${clip(JSON.stringify(reply.json))}`,
        };
      return { kind: "ok", text: typeof content === "string" ? content : null, json: reply.json };
    },
  };
}
