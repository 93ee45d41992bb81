// A model's tool-call format: read from its chat template (never from its file name), or chosen with --tool-format.
import { UserError } from "../common/index.ts";
import type { LoadedModel } from "../llm/index.ts";
import { openaiChat } from "./openai-chat.ts";
import type { ToolDialect } from "./dialect.ts";
import { DIALECTS, describeFormats, TEXT_DIALECTS, type ToolFormat } from "./formats.ts";

export interface DetectedDialect {
  readonly dialect: ToolDialect;
  /** What in the template decided it, for the line printed at the start of a run. */
  readonly reason: string;
}

/**
 * The format a template's own text asks for: the first of TEXT_DIALECTS whose `detect` recognises it (the Hermes
 * <tool_call> tag first; a template that never mentions `tools` is emulated, last). A template that takes tools in
 * some other way is an error naming --tool-format: never a silent default.
 */
export function detectDialect(template: string, origin: string): DetectedDialect {
  for (const dialect of TEXT_DIALECTS) {
    const reason = dialect.detect(template);
    if (reason !== undefined) return { dialect: dialect.forTemplate?.(template) ?? dialect, reason };
  }
  throw new UserError(
    `Cannot tell which tool-call format the chat template from ${origin} uses: it takes tools, but in no format ` +
      `the harness knows. Choose one with --tool-format after checking the template: ${describeFormats()}.`,
  );
}

/** The dialect a run uses: `format` when the user chose one (as the template needs it), else the template's. */
export function resolveDialect(format: ToolFormat | "auto", template: string, origin: string): DetectedDialect {
  if (format === "auto") return detectDialect(template, origin);
  const dialect = DIALECTS[format];
  return { dialect: dialect.forTemplate?.(template) ?? dialect, reason: `--tool-format ${format}` };
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
