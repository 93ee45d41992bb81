// The study's printed example exchange: one search_posts call and its result, as the `template` command shows it.
import type { ChatMessage, GenerateRequest } from "../llm/index.ts";
import { pyJsonDumps } from "../python/index.ts";
import { AGENT_ROLE } from "./prompts.ts";
import { SEARCH_POSTS } from "./tools.ts";
import type { ToolDialect } from "../toolcalls/index.ts";

export const EXAMPLE_QUESTION = "How can a maximum and a running sum be updated incrementally?";
export const EXAMPLE_CALL = { name: "search_posts", arguments: { query: "online softmax running maximum" } };
export const EXAMPLE_RESULT = [
  { post: "flashattention-explained", heading: "The online softmax", snippet: "Keep a running maximum m..." },
];

/** The exchange: the assistant's reply is raw text (the study appended the model's reply as written). */
export const EXAMPLE_MESSAGES: readonly ChatMessage[] = [
  { role: "system", content: AGENT_ROLE },
  { role: "user", content: EXAMPLE_QUESTION },
  { role: "assistant", content: `<tool_call>\n${pyJsonDumps(EXAMPLE_CALL)}\n</tool_call>` },
  { role: "tool", content: pyJsonDumps(EXAMPLE_RESULT) },
];

export const STUDY_EXAMPLE: GenerateRequest = { messages: EXAMPLE_MESSAGES, tools: [SEARCH_POSTS] };

/**
 * The same exchange as `dialect` writes it: the call in that family's own format (its `exampleReply`), sent back as
 * its template expects (hermes' is STUDY_EXAMPLE's messages).
 */
export function dialectExample(dialect: ToolDialect): GenerateRequest {
  // A chat server renders its own prompts, and its calls never stand in a reply's text: the example is the study's.
  if (dialect.exampleReply === undefined) return STUDY_EXAMPLE;
  const reply = dialect.exampleReply(EXAMPLE_CALL);
  const raw = dialect.findCalls(reply)[0]!;
  const record = { raw, name: EXAMPLE_CALL.name, arguments: EXAMPLE_CALL.arguments, malformed: false, shownPosts: [] };
  const messages = [
    ...dialect.openingMessages(AGENT_ROLE, EXAMPLE_QUESTION, [SEARCH_POSTS]),
    ...dialect.turnMessages(reply, [{ ...record, result: pyJsonDumps(EXAMPLE_RESULT) }], 1),
  ];
  return dialect.templateTools ? { messages, tools: [SEARCH_POSTS] } : { messages };
}
