// A ChatRuntime that returns chosen replies in order, and a tiny in-memory index: the loop's every branch, no model.
import type {
  ChatRuntime,
  GenerateRequest,
  Generation,
  CallRecord,
  CallCost,
  CallFailure,
} from "../../src/llm/types.ts";
import type { Section } from "../../src/corpus/types.ts";
import type { Hit } from "../../src/search/types.ts";
import type { BlogIndex } from "../../src/designs/tools.ts";

export interface ScriptedRuntime extends ChatRuntime {
  readonly requests: GenerateRequest[];
}

/**
 * Each call returns the next reply (with the forced prefix in front, as the real runtime does); tokens read = message
 * characters, and a call with tools counts its schemas' JSON characters as its tool block. A reply given as a failure
 * (and optionally costs) is a call that failed.
 */
export function scriptedRuntime(replies: readonly (string | (CallFailure & Partial<CallCost>))[]): ScriptedRuntime {
  const requests: GenerateRequest[] = [];
  return {
    requests,
    async generate(request: GenerateRequest): Promise<Generation> {
      requests.push(request);
      const next = replies[requests.length - 1];
      if (next === undefined) throw new Error(`scripted runtime: no reply scripted for call ${requests.length}`);
      const prompt = request.messages.map((m) => m.content).join("\n") + (request.prefix ?? "");
      // The tool block: the schemas' JSON characters, standing in for their tokens.
      const block = request.tools ? { toolBlockTokens: JSON.stringify(request.tools).length } : {};
      const base: CallRecord = {
        tokensRead: prompt.length,
        tokensEvaluated: prompt.length,
        tokensGenerated: 5,
        stopReason: "eos",
        seconds: 0.01,
        ...block,
      };
      if (typeof next !== "string") return { prompt, text: "", record: { ...base, ...next } };
      return { prompt, text: (request.prefix ?? "") + next, record: base };
    },
  };
}

export const SECTIONS: readonly Section[] = [
  {
    post: "flashattention-explained",
    heading: "The online softmax",
    level: 2,
    text: "Keep a running maximum m and a running sum l, rescaling the sum when the maximum grows.",
  },
  {
    post: "kv-cache-inference",
    heading: "Prefill and decode",
    level: 2,
    text: "Prefill processes the prompt in parallel; decode adds one token at a time.",
  },
  {
    post: "bm25-hybrid-search",
    heading: "Reciprocal rank fusion",
    level: 2,
    text: "Fuse rankings by summing one over k plus rank.",
  },
];

/** Search returns hits whose text shares a word with the query, in section order; read_section looks sections up. */
export function fakeIndex(): BlogIndex & { readonly queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    async search(query: string, k = 3): Promise<Hit[]> {
      queries.push(query);
      const words = query
        .toLowerCase()
        .split(/\W+/)
        .filter((w) => w.length > 3);
      return SECTIONS.filter((s) => words.some((w) => s.text.toLowerCase().includes(w)))
        .slice(0, k)
        .map((s) => ({ post: s.post, heading: s.heading, snippet: s.text }));
    },
    section: (post, heading) => SECTIONS.find((s) => s.post === post && s.heading === heading),
    posts: () => [...new Set(SECTIONS.map((s) => s.post))],
    headings: (post) => {
      const headings = SECTIONS.filter((s) => s.post === post).map((s) => s.heading);
      return headings.length > 0 ? headings : undefined;
    },
  };
}

/** The question the scripted loop tests ask: its gold section is in fakeIndex(). */
export const SCRIPTED_QUESTION = {
  id: "q01",
  question: "How is the running maximum of the online softmax updated?",
  post: "flashattention-explained",
  heading: "The online softmax",
};

/** A reply's tool call in the study's format. */
export const toolCallText = (name: string, args: unknown) =>
  `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
