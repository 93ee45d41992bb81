// The study's example exchange (system prompt, question, one search_posts call and its result) as a tool-call format
// writes it into messages: what the template-equivalence tests render through each family's template.
import type { ChatMessage, ToolSchema } from "../../src/llm/index.ts";
import { DIALECTS, type ToolDialect, type ToolFormat } from "../../src/toolcalls/index.ts";
import { EXAMPLE_CALL, EXAMPLE_QUESTION, EXAMPLE_RESULT } from "../../src/designs/study-example.ts";
import { AGENT_ROLE } from "../../src/designs/prompts.ts";
import { SEARCH_POSTS } from "../../src/designs/tools.ts";
import { pyJsonDumps } from "../../src/python/index.ts";

/** The tool's result as the loop shows it to the model. */
export const EXAMPLE_RESULT_TEXT = pyJsonDumps(EXAMPLE_RESULT);

/** The reply that makes the example call, as `format` writes it. */
export function exampleReply(format: ToolFormat): string {
  return DIALECTS[format].exampleReply(EXAMPLE_CALL);
}

/**
 * The exchange's messages as `dialect` (default: the format's own) opens the conversation and carries the call and
 * its result back, and the tools the template is given (none where the dialect writes them into a message).
 */
export function exampleExchange(
  format: ToolFormat,
  dialect: ToolDialect = DIALECTS[format],
): { messages: ChatMessage[]; tools: { tools?: ToolSchema[] } } {
  const reply = exampleReply(format);
  const raw = dialect.findCalls(reply)[0]!;
  const record = {
    raw,
    name: EXAMPLE_CALL.name,
    arguments: EXAMPLE_CALL.arguments,
    result: EXAMPLE_RESULT_TEXT,
    malformed: false,
    shownPosts: [],
  };
  const messages = [
    ...dialect.openingMessages(AGENT_ROLE, EXAMPLE_QUESTION, [SEARCH_POSTS]),
    ...dialect.turnMessages(reply, [record], 1),
  ];
  return { messages, tools: dialect.templateTools ? { tools: [SEARCH_POSTS] } : {} };
}
