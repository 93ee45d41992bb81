// A few fixed chat requests for greedy tests on the tiny model: tool schemas, a forced prefix, plain questions.
import { SEARCH_POSTS } from "../../src/designs/tools.ts";
import { STUDY_EXAMPLE } from "../../src/designs/study-example.ts";
import type { GenerateRequest } from "../../src/llm/types.ts";

const SYSTEM = "You answer questions about a technical blog, using its tools.";

export function question(i: number): string {
  const topics = [
    "the online softmax",
    "BM25 scoring",
    "KV-cache reuse",
    "continuous batching",
    "speculative decoding",
  ];
  return `Question ${i}: how does ${topics[i % topics.length]} work, and why?`;
}

export const GREEDY_REQUESTS: readonly GenerateRequest[] = [
  { ...STUDY_EXAMPLE, maxTokens: 24 },
  {
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: question(0) },
    ],
    tools: [SEARCH_POSTS],
    prefix: "<tool_call>\n",
    maxTokens: 24,
  },
  ...[1, 2, 3].map(
    (i): GenerateRequest => ({
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: question(i) },
      ],
      maxTokens: 16,
    }),
  ),
];
