// The workflow: search once with the question, put the top three hits in the prompt, answer in one call.
import type { DesignRun } from "./runners.ts";
import { DEFAULT_WORDING, workflowSystemFor, workflowUserFor } from "./wording.ts";
import { callFailure } from "../llm/index.ts";
import type { Transcript } from "./transcript.ts";
import { withoutThinking } from "./thinking.ts";
import { WORKFLOW_HITS } from "./limits.ts";

export async function runWorkflow({
  question,
  runtime,
  index,
  thinks = false,
  wording = DEFAULT_WORDING,
}: DesignRun): Promise<Transcript> {
  const hits = await index.search(question, WORKFLOW_HITS);
  const messages = [
    { role: "system", content: workflowSystemFor(wording) },
    { role: "user", content: workflowUserFor(wording, question, hits) },
  ] as const;
  const { text: reply, record } = await runtime.generate({ messages });
  const calls = [{ messages, withTools: false, reply, record, toolCalls: [] }];
  const retrieval = { query: question, hits };
  const failure = callFailure(record);
  if (failure !== undefined) return { retrieval, calls, answer: "", outcome: "error", error: failure };
  return { retrieval, calls, answer: thinks ? withoutThinking(reply) : reply, outcome: "answered" };
}
