// What every tool-call format says about one model family: how a reply's calls are found, what prefix forces a call,
// and how a reply with calls and their results go back into the messages that family's chat template renders. In the
// code a format is a dialect (ToolDialect): the two words name one thing, and users read "tool-call format".
import type { ChatMessage, GenerateRequest, MessageToolCall, ToolSchema } from "../llm/index.ts";
import { rawDecode } from "../python/index.ts";
import type { RunFormat, ToolFormat } from "./formats.ts";

/** How the forced design's first request forces a call: a prefix the reply starts with, or an API's tool_choice. */
export type ForcedCall = Pick<GenerateRequest, "prefix" | "toolChoice">;

/** A tool-call format: `format` is its name (--tool-format's value, the manifest's tool_format). */
export interface ToolDialect<F extends string = RunFormat> {
  readonly format: F;
  /**
   * The text of each call a reply holds, in the order written: each one JSON object as the model wrote it. `parsed`:
   * the calls a chat-mode server returned beside the reply (a format that reads text ignores it).
   */
  findCalls(reply: string, parsed?: readonly MessageToolCall[]): string[];
  /** The key a call's arguments are under ("arguments", or Llama 3's "parameters"). */
  readonly argumentsKey: string;
  /**
   * A format whose calls are not one JSON object says where a call's name and arguments are (else the call is one
   * JSON object with "name" and `argumentsKey`); binding them to the tools is the designs' job.
   */
  readonly splitCall?: (raw: string) => NamedCallText;
  /** How the forced design's first call is forced (the text formats: the prefix its reply starts with). */
  readonly forced: ForcedCall;
  /** Control tokens the runtime must keep in a reply's text for this parser to see them (none for hermes). */
  readonly keepTokens: readonly string[];
  /** Whether requests pass the tool schemas to the template (false: the dialect writes them into a message). */
  readonly templateTools: boolean;
  /** A run's first messages: the system prompt (with the tools, where the dialect puts them there) and the question. */
  openingMessages(system: string, question: string, tools: readonly ToolSchema[]): ChatMessage[];
  /** The messages that carry one reply with calls, and the calls' results, back into the conversation. */
  turnMessages(reply: string, calls: readonly CallResult[], turn: number): ChatMessage[];
  /** Whether some text looks like an attempt at a call in this dialect, parsed or not (for the mismatch count). */
  looksLikeCall(text: string): boolean;
  /** The format whose call markers this one shares (emulated writes hermes' tags): no mismatch between the two. */
  readonly family?: ToolFormat;
  /** A reply that makes `call`, as the family writes it; absent where calls never stand in a reply's text (chat mode). */
  readonly exampleReply?: (call: ExampleCall) => string;
}

/**
 * A format whose calls are read from a reply's text: one entry of TEXT_DIALECTS (formats.ts), which carries what the
 * help, detection and the `template` command's example say of it.
 */
export interface TextDialect<F extends string = ToolFormat> extends ToolDialect<F> {
  /** The families that write it, or what it is for: --tool-format's help and the refusal to guess one. */
  readonly describe: string;
  readonly exampleReply: (call: ExampleCall) => string;
  /** What in a chat template's text says it takes this format, for the line a run prints; undefined: not this one. */
  detect(template: string): string | undefined;
  /** The format as a given template needs it (emulated: the system text moved into the first user turn). */
  readonly forTemplate?: (template: string) => TextDialect<F>;
}

/** One call to write as a reply: the tool's name and its arguments. */
export interface ExampleCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** One call as a format writes it back: the call's text as found, and the result the tool returned for it. */
export interface CallResult {
  readonly raw: string;
  /** What the tool message carries: the study's json.dumps of the result, or its "error: <Type>: <message>". */
  readonly result: string;
}

/** A call written as a name and an arguments text apart (Mistral's "name[ARGS]{...}", an API's tool call). */
export interface NamedCallText {
  readonly name: string;
  readonly argumentsText: string;
  /** How the arguments text is decoded (absent: the first JSON value, the rest ignored, as the study's raw_decode). */
  readonly decode?: (text: string) => unknown;
}

/**
 * The calls of a JSON array of calls starting at `text[at]` ("["), as written: each element's text, in order.
 * Elements are read as json.loads would (raw_decode); at the first element that does not decode (truncated JSON,
 * a stray word) the rest of the text, up to `end`, is taken as one last call, so the model reads why it failed.
 */
export function arrayCalls(text: string): string[] {
  const calls: string[] = [];
  let pos = skipSpace(text, 1);
  while (pos < text.length && text[pos] !== "]") {
    let decoded: { end: number };
    try {
      decoded = rawDecode(text.slice(pos));
    } catch {
      calls.push(text.slice(pos).trimEnd());
      break;
    }
    calls.push(text.slice(pos, pos + decoded.end));
    pos = skipSpace(text, pos + decoded.end);
    if (text[pos] !== ",") break;
    pos = skipSpace(text, pos + 1);
  }
  return calls;
}

export function skipSpace(text: string, from: number): number {
  let pos = from;
  while (pos < text.length && " \t\n\r".includes(text[pos]!)) pos++;
  return pos;
}

/** The study's opening: the system prompt, then the question as the user's message (tools go to the template). */
export function systemThenQuestion(system: string, question: string): ChatMessage[] {
  return [
    { role: "system", content: system },
    { role: "user", content: question },
  ];
}

/** The study's way back: the reply as written in `content`, then one tool message per result. */
export function plainTurn(reply: string, calls: readonly CallResult[]): ChatMessage[] {
  return [
    { role: "assistant", content: reply },
    ...calls.map((call): ChatMessage => ({ role: "tool", content: call.result })),
  ];
}
