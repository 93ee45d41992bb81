// The schema overhead: how many tokens the agent's tool block adds to every call, in all and per tool.
import type { ChatMessage, LoadedModel, ToolSchema } from "../llm/index.ts";

export interface ToolBlockSize {
  /** Tokens the whole block adds to a prompt: the prompt with the tools minus the prompt without them. */
  readonly total: number;
  /** The template's own text around the schemas: the total less every tool's share. */
  readonly frame: number;
  /** Each tool's share: the prompt with every tool minus the prompt without that one. */
  readonly perTool: readonly { readonly name: string; readonly tokens: number }[];
}

/**
 * Measured on one conversation through a model's own template and tokenizer. Example, Qwen2.5's template and the
 * agent's two tools: a frame of instructions and tags, then one JSON line per tool, so total = frame + both shares.
 */
export function toolBlockSize(
  model: Pick<LoadedModel, "renderPrompt" | "countTokens">,
  tools: readonly ToolSchema[],
  messages: readonly ChatMessage[],
): ToolBlockSize {
  const tokens = (with_: readonly ToolSchema[]) =>
    model.countTokens(model.renderPrompt(with_.length > 0 ? { messages, tools: with_ } : { messages }));
  const all = tokens(tools);
  const total = all - tokens([]);
  const perTool = tools.map((tool) => ({
    name: tool.function.name,
    tokens: all - tokens(tools.filter((t) => t !== tool)),
  }));
  return { total, frame: total - perTool.reduce((a, t) => a + t.tokens, 0), perTool };
}
