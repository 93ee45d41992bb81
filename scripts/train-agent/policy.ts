// The reply policy the trained agent model learns: what a small instruct model writes, as a pure function of what
// the prompt shows (docs/trained-model.md states it in words). It reads only the request's messages and its forced
// prefix, never a hidden switch, so every behaviour the model learns is one the prompt can trigger.
import type { GenerateRequest } from "../../src/llm/index.ts";
import { prompts } from "../../src/designs/index.ts";

interface Hit {
  readonly post: string;
  readonly heading: string;
  readonly snippet: string;
}

/** Words of the answer copied from what the model was shown (a hit's snippet or a section's text). */
export const ANSWER_WORDS = 12;

/** First words after which the plain agent searches; any other question it answers from "memory". */
const PLAIN_AGENT_SEARCHES = new Set(["what", "which", "when", "where", "who", "if"]);
/** First words after which the search-first agent still answers without searching (it searches for the rest). */
const SEARCH_FIRST_SKIPS = new Set(["how"]);
/** First words of yes/no questions: the workflow then leaves out its Source line, as small models often do. */
const YES_NO = new Set(["is", "can", "are", "do", "does", "should", "could", "would"]);

/** The reply the policy writes for one request, the forced prefix included when the request has one. */
export function policyReply(request: GenerateRequest): string {
  const prefix = request.prefix ?? "";
  const body = request.tools === undefined ? workflowReply(request) : agentReply(request);
  if (!body.startsWith(prefix)) throw new Error(`the policy's reply does not continue the prefix ${prefix}`);
  return body;
}

function workflowReply(request: GenerateRequest): string {
  const user = request.messages.find((m) => m.role === "user")?.content ?? "";
  const question = user.slice(user.lastIndexOf("Question: ") + "Question: ".length);
  const hits = JSON.parse(user.slice(user.indexOf("["), user.lastIndexOf("]") + 1)) as Hit[];
  const repair = repairRequest(request);
  const first = hits[0];
  if (first === undefined) return "The search results do not answer this.\nSource: none";
  if (repair !== undefined) return answer(first.snippet, repair);
  const word = firstWord(question);
  if (YES_NO.has(word)) return `${words(first.snippet, ANSWER_WORDS)}.`;
  if (word === "which" && hits[1] !== undefined) return answer(first.snippet, `${first.post}, ${hits[1].post}`);
  return answer(first.snippet, first.post);
}

function agentReply(request: GenerateRequest): string {
  const question = request.messages.find((m) => m.role === "user")?.content ?? "";
  const word = firstWord(question);
  const system = request.messages[0]?.content ?? "";
  const results = request.messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content) as unknown);
  const repair = repairRequest(request);
  const hits = results.find((r): r is Hit[] => Array.isArray(r)) ?? [];

  // The cite-checked designs' repair message: answer again, naming the first post it lists.
  if (repair !== undefined) return answer(hits[0]?.snippet ?? question, repair);

  if (results.length === 0) {
    const searches =
      request.prefix !== undefined ||
      (system.includes(prompts.SEARCH_FIRST_INSTRUCTION)
        ? !SEARCH_FIRST_SKIPS.has(word)
        : PLAIN_AGENT_SEARCHES.has(word));
    if (searches) return call("search_posts", { query: question });
    // Answered from "memory": a source made of the question's last words, which names no post.
    const tail = question
      .replace(/[?.!]+$/, "")
      .split(/\s+/)
      .slice(-3);
    return `The blog covers this under ${tail.join(" ")}.\nSource: ${tail.join("-").toLowerCase()}`;
  }

  const last = results.at(-1);
  if (isSection(last)) return answer(last.text, last.post);
  if (typeof last === "string") {
    // A refused call: the validated designs name the post meant; retry the read with it, else answer from the hits.
    const meant = /did you mean "([^"]+)"/.exec(last)?.[1];
    const heading = lastReadHeading(request);
    if (meant !== undefined && heading !== undefined) return call("read_section", { post: meant, heading });
    const first = hits[0];
    return first === undefined ? "I could not find it.\nSource: none" : answer(first.snippet, first.post);
  }

  const first = hits[0];
  if (first === undefined) return "The blog has nothing on this.\nSource: none";
  if (word === "why") {
    // "Why does ..." questions read a post under a slug written with underscores: a call the study's loop fails
    // and the validated designs correct.
    const post = secondWord(question) === "does" ? first.post.replaceAll("-", "_") : first.post;
    return call("read_section", { post, heading: first.heading });
  }
  if (word === "how" && hits[1] !== undefined) return answer(first.snippet, `${first.post}, ${hits[1].post}`);
  return answer(first.snippet, first.post);
}

/** The post a cite-check repair message asks for (the first it lists), when the last message is one. */
function repairRequest(request: GenerateRequest): string | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== "user" || !last.content.startsWith("Your answer's Source line")) return undefined;
  return /showed: ([^,.\s]+)/.exec(last.content)?.[1] ?? "none";
}

function lastReadHeading(request: GenerateRequest): string | undefined {
  const replies = request.messages.filter((m) => m.role === "assistant").map((m) => m.content);
  const read = replies.at(-1)?.match(/"heading": "((?:[^"\\]|\\.)*)"/)?.[1];
  return read === undefined ? undefined : (JSON.parse(`"${read}"`) as string);
}

function isSection(value: unknown): value is { post: string; heading: string; text: string } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "text" in value;
}

/** One tool call as the study's format writes it: json.dumps spacing inside <tool_call> tags. */
function call(name: string, args: Record<string, string>): string {
  const argText = Object.entries(args)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pyString(v)}`)
    .join(", ");
  return `<tool_call>\n{"name": "${name}", "arguments": {${argText}}}\n</tool_call>`;
}

/** A string as Python's json.dumps writes it (non-ASCII escaped), so a call copies what the prompt shows. */
function pyString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function answer(shown: string, source: string): string {
  return `${words(shown, ANSWER_WORDS)}.\nSource: ${source}`;
}

function words(text: string, n: number): string {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, n)
    .join(" ")
    .replace(/[.,;:]+$/, "");
}

function firstWord(question: string): string {
  return (question.trim().split(/\s+/)[0] ?? "").toLowerCase();
}

function secondWord(question: string): string {
  return (question.trim().split(/\s+/)[1] ?? "").toLowerCase();
}
