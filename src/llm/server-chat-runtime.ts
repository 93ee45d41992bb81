// The chat mode's runtime, what an API user gets: the messages and the tools go to /v1/chat/completions, the server
// renders them with its own template and parses the calls out of the reply with its own parser; the reply's text
// and the server's `tool_calls` come back as it returned them, and its whole answer is logged with the call.
import { asMessageToolCall } from "./chat-tool-calls.ts";
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
import type { ChatMessage, ChatRuntime, GenerateRequest, Generation, MessageToolCall } from "./types.ts";

/** One request at a time to /v1/chat/completions; K of them make --parallel K requests in flight. */
export class ChatServerRuntime implements ChatRuntime {
  constructor(
    private readonly client: ServerClient,
    private readonly model: string,
    private readonly parameters: Readonly<Record<string, unknown>>,
    /** The server's context size (0: not reported), the bound of every count it sends. */
    private readonly contextSize: number,
  ) {}

  async generate(request: GenerateRequest): Promise<Generation> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    // A server renders its prompts itself: a reply cannot be started with a prefix nor decoded under our grammar.
    if (request.constraint !== undefined || request.prefix !== undefined)
      return failedGeneration("", "a forced prefix or a constraint needs --server-mode completions", seconds());
    const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
    const body = {
      model: this.model,
      messages: request.messages.map(apiMessage),
      ...(request.tools !== undefined && request.tools.length > 0 ? { tools: request.tools } : {}),
      ...(request.toolChoice !== undefined ? { tool_choice: request.toolChoice } : {}),
      ...(request.enableThinking !== undefined
        ? { chat_template_kwargs: { enable_thinking: request.enableThinking } }
        : {}),
      max_tokens: maxTokens,
      ...this.parameters,
      ...samplingFields(request.sampling),
    };
    const posted = await postCall(this.client, "/chat/completions", body);
    if (posted.kind === "failed") return failedGeneration("", posted.error, seconds(), posted.stopReason);
    const answer = parseChatAnswer(posted.json, this.contextSize);
    if (typeof answer === "string") return failedGeneration("", `server: ${answer}`, seconds(), "error", posted.json);
    // The calls count as text: a server that ignores max_tokens can write them at any length. The answer is not
    // logged: it is what was too long.
    const overlong = overlongReply(answer.text + JSON.stringify(answer.toolCalls ?? []), maxTokens);
    if (overlong !== undefined) return failedGeneration("", `server: ${overlong}`, seconds());
    const record = answeredRecord(answer, answer.finishReason, seconds(), posted.json);
    // The prompt is the server's to render: it is not known here.
    return {
      prompt: "",
      text: answer.text,
      record,
      ...(answer.toolCalls !== undefined ? { toolCalls: answer.toolCalls } : {}),
      sent: body,
    };
  }
}

/** A message as the API takes it: role and content, and a call's or a result's fields where it has them. */
function apiMessage(m: ChatMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: m.content };
  if (m.tool_calls !== undefined) out.tool_calls = m.tool_calls;
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  return out;
}

interface ChatAnswer extends Usage {
  /** The message's content ("" when null, as a server sends beside tool calls). */
  readonly text: string;
  /** The message's tool_calls, each made a call the log holds (asMessageToolCall); the dialect binds them. */
  readonly toolCalls: readonly MessageToolCall[] | undefined;
  readonly finishReason: string;
}

/** A /v1/chat/completions answer's message and usage, or what is wrong with it. */
export function parseChatAnswer(answer: unknown, contextSize: number): ChatAnswer | string {
  const json = asRecord(answer);
  const choice = asRecord(Array.isArray(json?.choices) ? json.choices[0] : undefined);
  const message = asRecord(choice?.message);
  const content = message?.content;
  const calls = message?.tool_calls;
  if (message === undefined || (typeof content !== "string" && content !== null && content !== undefined))
    return `the answer has no choices[0].message with a text content: ${clip(JSON.stringify(answer))}`;
  if (calls !== undefined && calls !== null && !Array.isArray(calls))
    return `the answer's tool_calls is not a list: ${clip(JSON.stringify(calls))}`;
  const usage = usageOf(json, contextSize);
  if (typeof usage === "string") return usage;
  return {
    text: typeof content === "string" ? content : "",
    // each entry as a call the log's reader accepts: a malformed one is a malformed call, never an unreadable folder
    toolCalls: Array.isArray(calls) && calls.length > 0 ? calls.map(asMessageToolCall) : undefined,
    finishReason: typeof choice?.finish_reason === "string" ? choice.finish_reason : "stop",
    ...usage,
  };
}
