// The workflow: search once with the question, put the top three hits in the prompt, answer in one call.
import type { DesignRun } from "./registry.ts";
import { WORKFLOW_SYSTEM_PROMPT, workflowUserPrompt } from "./prompts.ts";
import { callFailure } from "../llm/index.ts";
import type { Transcript } from "./transcript.ts";
import { withoutThinking } from "./thinking.ts";

export const WORKFLOW_HITS = 3;

export async function runWorkflow({ question, runtime, index, thinks = false }: DesignRun): Promise<Transcript> {
  const hits = await index.search(question, WORKFLOW_HITS);
  const messages = [
    { role: "system", content: WORKFLOW_SYSTEM_PROMPT },
    { role: "user", content: workflowUserPrompt(question, hits) },
  ] as const;
  const { text: reply, record } = await runtime.generate({ messages });
  const calls = [{ messages, withTools: false, reply, record, toolCalls: [] }];
  const retrieval = { query: question, hits };
  const failure = callFailure(record);
  if (failure !== undefined) return { retrieval, calls, answer: "", outcome: "error", error: failure };
  return { retrieval, calls, answer: thinks ? withoutThinking(reply) : reply, outcome: "answered" };
}
