// The cite-checked designs' step: one check of the final answer's Source line against the posts the run was shown,
// and at most one repair call when it fails. The repaired answer is scored; the first is kept in the transcript.
import { callFailure, type ChatRuntime, type ToolSchema } from "../../llm/index.ts";
import { citationRepairPrompt } from "../prompts.ts";
import type { BlogIndex } from "../tools.ts";
import type { Transcript } from "../transcript.ts";

/**
 * What is wrong with an answer's Source line, in the words of the repair message, or undefined when it names
 * exactly one post and the run's searches or reads returned it. The line is the text after the last "Source:",
 * and posts are found in it as substrings, as the strict scorer reads it.
 */
export function sourceProblem(
  answer: string,
  seenPosts: readonly string[],
  allPosts: readonly string[],
): string | undefined {
  const at = answer.lastIndexOf("Source:");
  if (at === -1) return "is missing";
  const line = answer.slice(at + "Source:".length);
  const named = allPosts.filter((slug) => line.includes(slug));
  if (named.length === 0) return "names no post of the blog";
  if (named.length > 1) return `names ${named.length} posts (${named.join(", ")}), not one`;
  if (!seenPosts.includes(named[0]!)) return `names ${named[0]}, which your search results never showed`;
  return undefined;
}

/** The posts a transcript's searches and reads showed the model, in first-seen order. */
export function seenPosts(t: Transcript): string[] {
  const retrieved = t.retrieval?.hits.map((h) => h.post) ?? [];
  return [...new Set([...retrieved, ...t.calls.flatMap((c) => c.toolCalls.flatMap((tc) => tc.shownPosts))])];
}

/**
 * Checks a finished run's answer and, when its Source line fails, asks once more: the last call's messages, its
 * reply as the assistant's, then the repair message, with the same tools (or none, for the workflow). The reply is
 * the answer whatever it holds (a tool call in it is not run), and it is never checked again. A run that did not
 * answer (out of turns, failed) is left as it is.
 */
export async function citeChecked(
  unchecked: Transcript,
  runtime: ChatRuntime,
  index: BlogIndex,
  /** The tools the run's calls were sent with (its wording's), sent again with a repair of a call that had them. */
  tools: readonly ToolSchema[],
): Promise<Transcript> {
  const first = { ...unchecked, checks: [...(unchecked.checks ?? []), "cite-check" as const] };
  const last = first.calls.at(-1);
  if (first.outcome !== "answered" || last === undefined) return first;
  const seen = seenPosts(first);
  const problem = sourceProblem(first.answer, seen, index.posts());
  if (problem === undefined) return first;

  const messages = [
    ...last.messages,
    { role: "assistant", content: last.reply },
    { role: "user", content: citationRepairPrompt(problem, seen) },
  ] as const;
  const { text: reply, record } = await runtime.generate({
    messages,
    ...(last.withTools ? { tools } : {}),
  });
  const calls = [...first.calls, { messages, withTools: last.withTools, reply, record, toolCalls: [] }];
  const repair = { firstAnswer: first.answer, problem };
  // A failed repair call fails the run, as any failed call does: its error is logged, never scored.
  const failure = callFailure(record);
  if (failure !== undefined) return { ...first, calls, answer: "", outcome: "error", error: failure, repair };
  return { ...first, calls, answer: reply, repair };
}
