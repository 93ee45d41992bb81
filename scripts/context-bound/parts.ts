// Measures what bound.ts adds up, for the study's designs on one blog: prompts through the model's own
// template and tokenizer, results from the tools themselves run on the blog's index.
import type { ChatMessage, LoadedModel } from "../../src/llm/index.ts";
import { pyJsonDumps, pyRepr } from "../../src/python/index.ts";
import { snippet, type Hit } from "../../src/search/index.ts";
import { hermes } from "../../src/toolcalls/index.ts";
import type { AgentDesign } from "../../src/designs/agent-loop.ts";
import { agentBound, workflowBound, type BoundLimits, type CallCandidate, type DesignBound } from "./bound.ts";
import { agentSystemPrompt, WORKFLOW_SYSTEM_PROMPT, workflowUserPrompt } from "../../src/designs/prompts.ts";
import type { StudyDesignId } from "../../src/designs/registry.ts";
import { AGENT_TOOLS, runToolCall, type BlogIndex } from "../../src/designs/tools.ts";
import { WORKFLOW_HITS } from "../../src/designs/limits.ts";

type Tokenizer = Pick<LoadedModel, "renderPrompt" | "countTokens">;

export interface BoundQuestions {
  /** The questions a run may ask: the one that makes the longest prompt counts. */
  readonly questions: readonly string[];
  /** Instead: any question of up to this many tokens. */
  readonly questionTokens?: number;
}

/** Malformed calls of a few tokens each, every one answered with an error text the model reads. */
const MALFORMED_CALLS = [
  "{",
  '{"',
  "{}",
  '{"name":""}',
  '{"name":"read_section"}',
  '{"name":"read_section","arguments":{}}',
];

/**
 * The bound of each of the study's designs, with the study's hermes format (Qwen2.5's): the tool calls as JSON in
 * <tool_call> tags, their results as tool messages. Assumes a reply's text tokenizes again into at most the tokens
 * generated for it (a byte-level BPE can tokenize a decoded text otherwise, by a token here and there).
 */
export async function studyContextBounds(
  model: Tokenizer,
  index: BlogIndex,
  asked: BoundQuestions,
  limits: BoundLimits,
): Promise<Record<StudyDesignId, DesignBound>> {
  const tokens = (messages: readonly ChatMessage[], prefix?: string) =>
    model.countTokens(
      model.renderPrompt({ messages, tools: AGENT_TOOLS, ...(prefix === undefined ? {} : { prefix }) }),
    );
  const sections = allHits(index);
  const triples = longestTriples(model, sections);
  const candidates = await callCandidates(model, index, sections, triples);
  const turnFrame = measureTurnFrame(model);

  const longest = (prompt: (question: string) => number) =>
    asked.questionTokens !== undefined ? prompt("") + asked.questionTokens : Math.max(...asked.questions.map(prompt));
  const agent = (design: AgentDesign) => {
    const prefix = design === "agent-forced" ? hermes.forced.prefix : undefined;
    const opening = (q: string) => hermes.openingMessages(agentSystemPrompt(design), q, AGENT_TOOLS);
    const firstPrompt = longest((q) => tokens(opening(q), prefix));
    const prefixTokens = prefix === undefined ? 0 : tokens(opening(""), prefix) - tokens(opening(""));
    return agentBound({ firstPrompt, turnFrame, prefixTokens, candidates }, limits);
  };
  const workflowPrompt = (q: string) =>
    Math.max(
      ...triples.map((hits) =>
        model.countTokens(
          model.renderPrompt({
            messages: [
              { role: "system", content: WORKFLOW_SYSTEM_PROMPT },
              { role: "user", content: workflowUserPrompt(q, hits) },
            ],
          }),
        ),
      ),
    );
  return {
    workflow: workflowBound(longest(workflowPrompt), limits),
    agent: agent("agent"),
    "agent-search-first": agent("agent-search-first"),
    "agent-forced": agent("agent-forced"),
  };
}

/** The hit a search shows for each section of the blog. */
function allHits(index: BlogIndex): Hit[] {
  return index.posts().flatMap((post) =>
    (index.headings(post) ?? []).map((heading) => {
      const section = index.section(post, heading)!;
      return { post: section.post, heading: section.heading, snippet: snippet(section.text) };
    }),
  );
}

/**
 * The search results with the most tokens: every three of the five longest hits (the hits' own token counts rank
 * them; their neighbours in the list may merge a token or two, which the five leave room for).
 */
function longestTriples(model: Tokenizer, hits: readonly Hit[]): Hit[][] {
  const ranked = hits
    .map((hit) => ({ hit, tokens: model.countTokens(pyJsonDumps(hit)) }))
    .sort((a, b) => b.tokens - a.tokens)
    .slice(0, 5)
    .map((r) => r.hit);
  if (ranked.length <= WORKFLOW_HITS) return [ranked];
  const out: Hit[][] = [];
  for (let i = 0; i < ranked.length; i++)
    for (let j = i + 1; j < ranked.length; j++)
      for (let k = j + 1; k < ranked.length; k++) out.push([ranked[i]!, ranked[j]!, ranked[k]!]);
  return out;
}

/**
 * Every call a reply may hold that brings back much: read_section of each section, search_posts with the cheapest
 * query shown the longest hits, and a few malformed calls. Each is written in its fewest tokens (compact or spaced
 * JSON, either key order), in the tags the study's pattern needs at least; its result is the tool's own text.
 */
async function callCandidates(
  model: Tokenizer,
  index: BlogIndex,
  hits: readonly Hit[],
  triples: readonly Hit[][],
): Promise<CallCandidate[]> {
  const cost = resultCost(model);
  const callTokens = (name: string, args: Record<string, string>) =>
    Math.min(...callSpellings(name, args).map((body) => model.countTokens(`<tool_call>${body}</tool_call>`)));
  const out: CallCandidate[] = [];
  for (const { post, heading } of hits) {
    const args = { post, heading };
    const record = await runToolCall(JSON.stringify({ name: "read_section", arguments: args }), index);
    if (record.malformed) throw new Error(`read_section of a heading the index lists failed: ${record.result}`);
    out.push({
      label: `read_section(${post}, ${pyRepr(heading)})`,
      callTokens: callTokens("read_section", args),
      resultTokens: cost(record.result),
    });
  }
  const search = { name: "search_posts", arguments: { query: "" } };
  let searchResult = 0;
  for (const triple of triples) {
    const shown: BlogIndex = { ...index, search: async () => triple };
    searchResult = Math.max(searchResult, cost((await runToolCall(JSON.stringify(search), shown)).result));
  }
  out.push({
    label: 'search_posts("") shown the longest hits',
    callTokens: callTokens(search.name, search.arguments),
    resultTokens: searchResult,
  });
  for (const body of MALFORMED_CALLS) {
    out.push({
      label: `malformed <tool_call>${body}</tool_call>`,
      callTokens: model.countTokens(`<tool_call>${body}</tool_call>`),
      resultTokens: cost((await runToolCall(body, index)).result),
    });
  }
  return out;
}

/** A call's JSON in the spellings a model may write: compact or spaced, each object's keys in either order. */
function callSpellings(name: string, args: Record<string, string>): string[] {
  const orders = <T>(pairs: [string, T][]) => [pairs, [...pairs].reverse()];
  const out: string[] = [];
  for (const argPairs of orders(Object.entries(args)))
    for (const callPairs of orders<unknown>([
      ["name", name],
      ["arguments", Object.fromEntries(argPairs)],
    ])) {
      const call = Object.fromEntries(callPairs);
      out.push(JSON.stringify(call), pyJsonDumps(call));
    }
  return out;
}

/** One reply with one call, as a conversation goes on after it: the frame and the results are measured on it. */
const SAMPLE_REPLY = '<tool_call>{"name":"search_posts","arguments":{"query":"q"}}</tool_call>';

function sampleConversation(results: readonly string[]): ChatMessage[] {
  return [
    ...hermes.openingMessages(agentSystemPrompt("agent"), "q", AGENT_TOOLS),
    ...hermes.turnMessages(
      SAMPLE_REPLY,
      results.map((result) => ({ raw: "{}", result })),
      1,
    ),
  ];
}

/** What one more tool message in a turn adds to the next prompt, measured through the template. */
function resultCost(model: Tokenizer): (result: string) => number {
  const render = (results: readonly string[]) =>
    model.countTokens(model.renderPrompt({ messages: sampleConversation(results), tools: AGENT_TOOLS }));
  const one = render(['"a"']);
  return (result) => render(['"a"', result]) - one;
}

/** What a turn adds besides its reply and its results: the prompt after one turn, less the first, the reply, the result. */
function measureTurnFrame(model: Tokenizer): number {
  const render = (messages: readonly ChatMessage[]) =>
    model.countTokens(model.renderPrompt({ messages, tools: AGENT_TOOLS }));
  const first = render(hermes.openingMessages(agentSystemPrompt("agent"), "q", AGENT_TOOLS));
  const after = render(sampleConversation(['"a"']));
  return after - first - model.countTokens(SAMPLE_REPLY) - resultCost(model)('"a"');
}
