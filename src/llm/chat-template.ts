// Renders a chat request through the model's own Jinja chat template, the way transformers' apply_chat_template does.
import { createRequire } from "node:module";
import type * as Jinja from "@huggingface/jinja";
import { UserError } from "../common/index.ts";
import type { ChatMessage, GenerateRequest } from "./types.ts";
import { sha256Hex } from "../common/index.ts";

export interface ChatTemplate {
  readonly source: string;
  /** Where the template came from, for error messages: "GGUF metadata of X" or a file path. */
  readonly origin: string;
  readonly sha256: string;
  readonly template: Jinja.Template;
}

/** Special-token strings a template may refer to (transformers passes the tokenizer's special tokens). */
export interface TemplateTokens {
  readonly bos_token?: string;
  readonly eos_token?: string;
}

export function compileChatTemplate(source: string, origin: string): ChatTemplate {
  try {
    return { source, origin, sha256: sha256Hex(source), template: new (jinja().Template)(source) };
  } catch (error) {
    throw new UserError(`Cannot parse the chat template from ${origin}: ${(error as Error).message}`);
  }
}

/** A model without a template gets this, naming the escape hatch. */
export function missingTemplateError(model: string): UserError {
  return new UserError(
    `${model} has no chat template in its GGUF metadata (tokenizer.chat_template). ` +
      `Pass one with --chat-template FILE (a Jinja file, e.g. the model's tokenizer_config.json "chat_template").`,
  );
}

/**
 * Steps (expressions and statements evaluated) one render may take, about 2 s: the templates of test/fixtures take
 * 600 to 1,500 for 30 messages with tools.
 */
const MAX_RENDER_STEPS = 200_000;
/** Characters any text built during a render may hold: far more than a context of any size. */
const MAX_RENDER_CHARS = 16 * 1024 * 1024;

class RenderBound extends Error {}

/** The budget of the render under way; undefined outside renderChatPrompt (renders are synchronous: one at a time). */
let budget: { steps: number } | undefined;

let loaded: typeof Jinja | undefined;

/**
 * The one door to @huggingface/jinja: required on the first template compiled, so a command that renders no prompt
 * never loads it, and its render bounded once, as it loads.
 */
function jinja(): typeof Jinja {
  if (loaded !== undefined) return loaded;
  loaded = createRequire(import.meta.url)("@huggingface/jinja") as typeof Jinja;
  boundRenders(loaded);
  return loaded;
}

function boundRenders({ Environment, Interpreter }: typeof Jinja): void {
  // subtle: a template is a program from a GGUF, a file or a server, and Jinja can loop without end (nested ranges,
  // a macro that calls itself twice) or double a string until memory runs out. @huggingface/jinja's render makes its
  // own Interpreter, so the bound sits on the Interpreter's one entry for every node, and only counts while a budget
  // is set.
  const evaluate = Interpreter.prototype.evaluate;
  Interpreter.prototype.evaluate = function bounded(this: Jinja.Interpreter, ...args: Parameters<typeof evaluate>) {
    if (budget !== undefined && --budget.steps < 0)
      throw new RenderBound(`it took more than ${MAX_RENDER_STEPS} steps (a loop that does not end?)`);
    const value = evaluate.apply(this, args);
    if (budget !== undefined && typeof value.value === "string" && value.value.length > MAX_RENDER_CHARS)
      throw new RenderBound(`it built a text longer than ${MAX_RENDER_CHARS} characters`);
    return value;
  };

  // range(n) builds its whole list before a loop takes one step of it: range(1e8) exhausts the heap first. Each
  // render's Environment gets the global by this one set call, so the length is checked there, within the same budget.
  const set = Environment.prototype.set;
  Environment.prototype.set = function boundedSet(this: Jinja.Environment, name: string, value: unknown) {
    if (name !== "range" || typeof value !== "function") return set.call(this, name, value);
    const range = value as (...args: number[]) => number[];
    return set.call(this, name, (start: number, stop?: number, step = 1) => {
      const [from, to] = stop === undefined ? [0, start] : [start, stop];
      const length = step === 0 ? 0 : Math.ceil((to - from) / step);
      if (budget !== undefined && length > budget.steps)
        throw new RenderBound(
          `range() of ${length} numbers is more than the ${budget.steps} steps left of ${MAX_RENDER_STEPS}`,
        );
      return stop === undefined ? range(start) : range(start, stop, step);
    });
  };
}

/**
 * The prompt for one call: the template rendered with `messages`, `tools` and `add_generation_prompt: true`,
 * then the forced prefix appended, so the reply continues it. Example, Qwen2.5 without tools:
 * `<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n` + prefix.
 */
export function renderChatPrompt(
  template: ChatTemplate,
  request: GenerateRequest,
  tokens: TemplateTokens = {},
): string {
  // subtle: HF passes tools=None when there are none; an empty list is falsy in Jinja too, so both render alike.
  const tools = request.tools !== undefined && request.tools.length > 0 ? request.tools : undefined;
  let rendered: string;
  budget = { steps: MAX_RENDER_STEPS };
  try {
    rendered = template.template.render({
      messages: request.messages.map(templateMessage),
      tools,
      add_generation_prompt: true,
      ...(request.enableThinking !== undefined ? { enable_thinking: request.enableThinking } : {}),
      ...tokens,
    });
  } catch (error) {
    const bound = error instanceof RenderBound ? "; a chat template renders a prompt in far fewer" : "";
    throw new UserError(
      `The chat template from ${template.origin} failed to render: ${(error as Error).message}${bound}`,
    );
  } finally {
    budget = undefined;
  }
  return rendered + (request.prefix ?? "");
}

/** A message as the template gets it: role and content, and the optional fields only where a message has them. */
function templateMessage(m: ChatMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: m.content };
  if (m.tool_calls !== undefined) out.tool_calls = m.tool_calls;
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (m.tools !== undefined) out.tools = m.tools;
  return out;
}
