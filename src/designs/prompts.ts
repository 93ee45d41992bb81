// Every prompt the study sends, in one place (docs/designs.md quotes this file). Each text says whether it is the study's
// own, verbatim (from its printed example exchange or its description), or ours, where the study does not publish it.
import { pyJsonDumps } from "../python/index.ts";
import type { Hit } from "../search/index.ts";
import type { StudyDesignId } from "./registry.ts";

/** Ours: the study says every answer must end with `Source: <post>`, not in which words it asked. */
export const SOURCE_INSTRUCTION =
  "End your answer with a line 'Source: <post>', where <post> is the slug of the blog post you used.";

/** Ours: the workflow's system prompt is not published. */
export const WORKFLOW_SYSTEM_PROMPT = `You answer questions about a technical blog, using the search results you are given. ${SOURCE_INSTRUCTION}`;

/** The study's, verbatim: the agent's role, the whole system prompt of the study's printed example exchange. */
export const AGENT_ROLE = "You answer questions about a technical blog, using its tools.";

export const AGENT_SYSTEM_PROMPT = `${AGENT_ROLE} ${SOURCE_INSTRUCTION}`;

/** Ours: the study quotes its meaning ("always call search_posts before answering"), not its words (about 23 tokens). */
export const SEARCH_FIRST_INSTRUCTION = "Always call search_posts before answering.";

/** The study's, verbatim: starts the forced design's first reply, its stand-in for an API's tool_choice "required". */
export { FORCED_PREFIX } from "../toolcalls/index.ts";

/** The study's, verbatim: what the agent answers when it is still calling tools after the last turn. */
export const RAN_OUT_OF_TURNS = "(ran out of turns)";

export function agentSystemPrompt(design: Exclude<StudyDesignId, "workflow">): string {
  return design === "agent" ? AGENT_SYSTEM_PROMPT : `${AGENT_SYSTEM_PROMPT} ${SEARCH_FIRST_INSTRUCTION}`;
}

/** Ours (the layout): the workflow shows its hits exactly as the agent's search_posts tool returns them. */
export function workflowUserPrompt(question: string, hits: readonly Hit[]): string {
  return `Search results:\n${pyJsonDumps(hits)}\n\nQuestion: ${question}`;
}

/**
 * Beyond the study: the cite-checked designs' one repair message, sent as a user message after an answer whose
 * Source line does not name exactly one post that the run's searches or reads returned.
 */
export function citationRepairPrompt(problem: string, seenPosts: readonly string[]): string {
  const seen =
    seenPosts.length > 0
      ? `The posts your search results showed: ${seenPosts.join(", ")}.`
      : "Your search results showed no posts.";
  return `Your answer's Source line ${problem}. ${seen} Answer again, ending with a line 'Source: <post>' that names the one post you used.`;
}
