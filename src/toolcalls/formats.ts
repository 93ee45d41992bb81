// The one list of tool-call formats read from a reply's text: every format's name, choice, help text and lookup
// derives from it, so a new format is its module and one line here.
import { emulated } from "./emulated.ts";
import { hermes } from "./hermes.ts";
import { llama3 } from "./llama3.ts";
import { mistral } from "./mistral.ts";
import { mistralV11 } from "./mistral-v11.ts";
import { openaiChat } from "./openai-chat.ts";
import { phi4 } from "./phi4.ts";
import type { TextDialect, ToolDialect } from "./dialect.ts";

/**
 * In the order detection tries them: a template's format is the first whose `detect` recognises it (emulated, for a
 * template that takes no tools, last).
 */
export const TEXT_DIALECTS = [hermes, mistral, mistralV11, llama3, phi4, emulated] as const;

/** The formats whose calls are read from a reply's text: what --tool-format and parse-calls --format choose from. */
export type ToolFormat = (typeof TEXT_DIALECTS)[number]["format"];
/** A run's tool-call format: one read from text, or chat mode's, whose calls the server parses (openai-chat). */
export type RunFormat = ToolFormat | (typeof openaiChat)["format"];

export const TOOL_FORMATS: readonly ToolFormat[] = TEXT_DIALECTS.map((d) => d.format);

/** Each text format by its name. */
export const DIALECTS = Object.fromEntries(TEXT_DIALECTS.map((d) => [d.format, d])) as Readonly<
  Record<ToolFormat, TextDialect>
>;

/** The dialect of a recorded format (a manifest's), chat mode's included. */
export function dialectOf(format: RunFormat): ToolDialect {
  return format === openaiChat.format ? openaiChat : DIALECTS[format];
}

/** Every text format and what it is for, as the help and the refusal to guess one list them. */
export function describeFormats(): string {
  const each = TEXT_DIALECTS.map((d) => `${d.format} (${d.describe})`);
  return `${each.slice(0, -1).join(", ")}, or ${each.at(-1)}`;
}
