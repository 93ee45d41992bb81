// The completions mode's runtime: the prompt rendered here with the model's chat template, exactly as the in-process
// runtime renders it, sent as raw text to /v1/completions, greedy; the reply's text comes back for the study's parser.
import type { ServerClient } from "./server-client.ts";
import {
  answeredRecord,
  asRecord,
  clip,
  failedGeneration,
  overlongReply,
  postCall,
  samplingFields,
  usageOf,
  type Usage,
} from "./server-answer.ts";
import { DEFAULT_MAX_TOKENS } from "./sequence-runtime.ts";
import type { ChatRuntime, GenerateRequest, Generation, ServerInfo } from "./types.ts";

/** One request at a time to /v1/completions; K of them make --parallel K requests in flight. */
export class ServerRuntime implements ChatRuntime {
  constructor(
    private readonly client: ServerClient,
    private readonly model: string,
    private readonly render: (request: GenerateRequest) => string,
    private readonly parameters: Readonly<Record<string, unknown>>,
    /** The server's context size (0: not reported), the bound of every count it sends. */
    private readonly contextSize: number,
    /** llama-server keeps the tokens a request lists; other servers keep every special token when asked. */
    private readonly flavor: ServerInfo["flavor"] = "openai",
  ) {}

  async generate(request: GenerateRequest): Promise<Generation> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    if (request.constraint !== undefined)
      return failedGeneration(
        "",
        "a constrained design needs the in-process runtime: it is not sent to a server",
        seconds(),
      );
    let prompt: string;
    try {
      prompt = this.render(request);
    } catch (error) {
      return failedGeneration("", (error as Error).message, seconds());
    }
    const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
    const body = {
      model: this.model,
      prompt,
      max_tokens: maxTokens,
      ...this.parameters,
      ...samplingFields(request.sampling),
      ...keepTokens(this.flavor, request.keepTokens),
    };
    const posted = await postCall(this.client, "/completions", body);
    if (posted.kind === "failed") return failedGeneration(prompt, posted.error, seconds(), posted.stopReason);
    const parsed = parseCompletion(posted.json, this.contextSize);
    if (typeof parsed === "string") return failedGeneration(prompt, `server: ${parsed}`, seconds());
    const overlong = overlongReply(parsed.text, maxTokens);
    if (overlong !== undefined) return failedGeneration(prompt, `server: ${overlong}`, seconds());
    const record = answeredRecord(parsed, parsed.finishReason, seconds());
    return { prompt, text: (request.prefix ?? "") + parsed.text, record, sent: body };
  }
}

/**
 * The request field that keeps a format's control tokens (Mistral's [TOOL_CALLS]) in the reply's text, where its
 * parser must see them; servers drop a control token's text by default. llama-server keeps the tokens listed in
 * `preserved_tokens` (one token each); vLLM and SGLang keep every special token with `skip_special_tokens: false`.
 * Nothing for a format that keeps none, such as the study's hermes: its requests stay exactly what they were.
 */
export function keepTokens(
  flavor: ServerInfo["flavor"],
  tokens: readonly string[] | undefined,
): { preserved_tokens?: readonly string[]; skip_special_tokens?: false } {
  if (tokens === undefined || tokens.length === 0) return {};
  return flavor === "llama-server" ? { preserved_tokens: tokens } : { skip_special_tokens: false };
}

interface Completion extends Usage {
  readonly text: string;
  readonly finishReason: string;
}

/** A /v1/completions answer's text and usage, or what is wrong with it. */
export function parseCompletion(answer: unknown, contextSize: number): Completion | string {
  const json = asRecord(answer);
  const choice = asRecord(Array.isArray(json?.choices) ? json.choices[0] : undefined);
  if (typeof choice?.text !== "string") return `the answer has no choices[0].text: ${clip(JSON.stringify(answer))}`;
  const usage = usageOf(json, contextSize);
  if (typeof usage === "string") return usage;
  return {
    text: choice.text,
    finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : "stop",
    ...usage,
  };
}
