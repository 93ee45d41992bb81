// Reasoning models (Qwen3 and others whose templates take `enable_thinking`): what a reply thought, and what it said.
import type { ChatRuntime, LoadedModel } from "../llm/index.ts";

/** Whether a chat template knows thinking: it writes <think> blocks or takes `enable_thinking`. */
export function templateThinks(source: string): boolean {
  return source.includes("<think>") || source.includes("enable_thinking");
}

/**
 * The reply without its thinking: every <think>...</think> block removed, an unclosed <think> to the end of the reply,
 * and text before a first </think> that no <think> opened (templates that open the block in the prompt, as
 * DeepSeek-R1's does). Leading whitespace left by a removed block goes too. Example:
 * "<think>\nsearch first\n</think>\n\nIt rescales." -> "It rescales.".
 */
export function withoutThinking(reply: string): string {
  let text = reply;
  const close = text.indexOf("</think>");
  const open = text.indexOf("<think>");
  if (close !== -1 && (open === -1 || close < open)) text = text.slice(close + "</think>".length);
  text = text.replace(/<think>[\s\S]*?(?:<\/think>|$)/g, "");
  return text === reply ? reply : text.trimStart();
}

/** The runtime with the template's thinking switch set on every call (for a template that has one). */
export function withThinking(runtime: ChatRuntime, enabled: boolean): ChatRuntime {
  return { generate: (request) => runtime.generate({ ...request, enableThinking: enabled }) };
}

/**
 * How a run treats a model's thinking: for a template that knows it, every call sets its switch to the --thinking
 * setting and replies lose their <think> blocks before parsing and scoring; for any other template nothing changes
 * (the study's Qwen2.5 prompts stay byte for byte), and --thinking is noted as having no effect.
 */
export function modelThinking(
  model: Pick<LoadedModel, "template">,
  enabled: boolean,
): { readonly thinks: boolean; readonly wrap: (runtime: ChatRuntime) => ChatRuntime; readonly note?: string } {
  if (!templateThinks(model.template.source))
    return {
      thinks: false,
      wrap: (runtime) => runtime,
      ...(enabled ? { note: "--thinking has no effect: the chat template has no thinking switch" } : {}),
    };
  return {
    thinks: true,
    wrap: (runtime) => withThinking(runtime, enabled),
    note: `thinking ${enabled ? "on (--thinking)" : "off (--thinking turns it on)"}`,
  };
}
