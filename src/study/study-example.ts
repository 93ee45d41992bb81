// The study's printed example exchange: one search_posts call and its result, as the `template` command shows it.
import type { ChatMessage, GenerateRequest } from "../llm/index.ts";
import { pyJsonDumps } from "../python/index.ts";
import { AGENT_ROLE } from "./prompts.ts";
import { SEARCH_POSTS } from "./tools.ts";

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
