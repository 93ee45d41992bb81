// Which dialect a model speaks, read from its chat template (never from its file name), or chosen with --tool-format.
import { UserError } from "../common/index.ts";
import type { LoadedModel } from "../llm/index.ts";
import { emulatedDialect, emulated } from "./emulated.ts";
import { hermes } from "./hermes.ts";
import { llama3 } from "./llama3.ts";
import { mistral } from "./mistral.ts";
import { mistralV11 } from "./mistral-v11.ts";
import { openaiChat } from "./openai-chat.ts";
import { phi4 } from "./phi4.ts";
import type { RunFormat, ToolDialect, ToolFormat } from "./dialect.ts";

export interface DetectedDialect {
  readonly dialect: ToolDialect;
  /** What in the template decided it, for the line printed at the start of a run. */
  readonly reason: string;
}

/**
 * The dialect a template's own text asks for. In order: the Hermes <tool_call> tag (Qwen2.5, Qwen3, Hermes 2/3 on
 * Llama too); Mistral's [TOOL_CALLS] with a JSON list (not the "[ARGS]" form); Llama 3's ipython role or
 * <|python_tag|>; Phi-4-mini's <|tool|> list or <|tool_call|>; and a template that never mentions `tools` is emulated.
 * A template that takes tools in some other way is an error naming --tool-format: never a silent default.
 */
export function detectDialect(template: string, origin: string): DetectedDialect {
  const has = (s: string) => template.includes(s);
  if (has("<tool_call>")) return { dialect: hermes, reason: "the template writes <tool_call>" };
  if (has("[TOOL_CALLS]") && !has("[ARGS]"))
    return { dialect: mistral, reason: "the template writes [TOOL_CALLS] with a JSON list" };
  if (has("[TOOL_CALLS]")) return { dialect: mistralV11, reason: "the template writes [TOOL_CALLS] name [ARGS]" };
  if (has("<|python_tag|>") || has("ipython")) return { dialect: llama3, reason: "the template has the ipython role" };
  if (has("<|tool_call|>") || has("'<|tool|>'")) return { dialect: phi4, reason: "the template writes <|tool|>" };
  if (!/\btools\b/.test(template)) {
    const systemInUser = has("System role not supported");
    return {
      dialect: emulatedDialect({ systemInUser }),
      reason: `the template takes no tools${systemInUser ? " and no system role" : ""}`,
    };
  }
  throw new UserError(
    `Cannot tell which tool-call format the chat template from ${origin} uses: it takes tools, but in no format ` +
      `the harness knows. Choose one with --tool-format (hermes, llama3, mistral, mistral-v11, phi4, or emulated ` +
      `to write the tools into the system prompt), after checking the template.`,
  );
}

/** The dialect a run uses: `format` when the user chose one, else the template's. */
export function resolveDialect(format: ToolFormat | "auto", template: string, origin: string): DetectedDialect {
  if (format === "auto") return detectDialect(template, origin);
  if (format === "emulated") {
    const systemInUser = template.includes("System role not supported");
    return { dialect: systemInUser ? emulatedDialect({ systemInUser }) : emulated, reason: "--tool-format emulated" };
  }
  return { dialect: DIALECTS[format], reason: `--tool-format ${format}` };
}

/** Where a tool format was chosen, for a refusal: what the user wrote, and what to remove. */
export interface FormatChoice {
  readonly said: string;
  readonly drop: string;
}

/**
 * A loaded model's dialect under a run's --tool-format. In --server-mode chat the server parses the calls, so the
 * format is openai-chat whatever the template, and choosing another is refused, naming where the choice was made
 * (--tool-format, unless `choice` says otherwise: a --models file's entry).
 */
export function modelDialect(
  model: Pick<LoadedModel, "template" | "info">,
  format: ToolFormat | "auto",
  choice: FormatChoice = { said: `--tool-format ${format}`, drop: "--tool-format" },
): DetectedDialect {
  if (model.info.server?.mode === "chat") {
    if (format !== "auto")
      throw new UserError(
        `${choice.said} reads calls from a reply's text, but in --server-mode chat the server parses them: ` +
          `drop ${choice.drop}, or use --server-mode completions`,
      );
    return { dialect: openaiChat, reason: "--server-mode chat: the server's template and parser" };
  }
  return resolveDialect(format, model.template.source, model.template.origin);
}

export const DIALECTS: Readonly<Record<ToolFormat, ToolDialect>> = {
  hermes,
  llama3,
  mistral,
  "mistral-v11": mistralV11,
  phi4,
  emulated,
};

/** The dialect of a recorded format (a manifest's), chat mode's included. */
export function dialectOf(format: RunFormat): ToolDialect {
  return format === "openai-chat" ? openaiChat : DIALECTS[format];
}
