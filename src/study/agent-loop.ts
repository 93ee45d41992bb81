// The agent loop, as the study ran it: generate, run every tool call the reply wrote, append, repeat.
import type { ChatMessage, ChatRuntime, GenerateRequest } from "../llm/index.ts";
import { AGENT_TOOLS, runToolCall, type BlogIndex } from "./tools.ts";
import { toolCallBlocks } from "./tool-call-blocks.ts";
import { agentSystemPrompt, FORCED_PREFIX, RAN_OUT_OF_TURNS } from "./prompts.ts";
import { callFailure } from "../llm/index.ts";
import type { ModelCall, ToolCallRecord, Transcript, StudyDesignId } from "./types.ts";

export const MAX_TURNS = 6;

export type AgentDesign = Exclude<StudyDesignId, "workflow">;

/** The two steps a design may swap (the engineered designs do): how one call's text runs, how the first reply starts. */
export interface LoopSteps {
  readonly runCall: (block: string, index: BlogIndex) => Promise<ToolCallRecord>;
  readonly firstReply: Pick<GenerateRequest, "prefix" | "constraint">;
}

/** The study's steps: calls run as written; the forced design starts its first reply with "<tool_call>\n". */
export function studySteps(design: AgentDesign): LoopSteps {
  return { runCall: runToolCall, firstReply: design === "agent-forced" ? { prefix: FORCED_PREFIX } : {} };
}

export async function runAgent(
  question: string,
  design: AgentDesign,
  runtime: ChatRuntime,
  index: BlogIndex,
  steps: LoopSteps = studySteps(design),
): Promise<Transcript> {
  const messages: ChatMessage[] = [
    { role: "system", content: agentSystemPrompt(design) },
    { role: "user", content: question },
  ];
  const calls: ModelCall[] = [];

  for (let turn = 1; turn <= MAX_TURNS; turn++) {
    const first = turn === 1 ? steps.firstReply : {};
    const sent = [...messages];
    const { text: reply, record } = await runtime.generate({ messages: sent, tools: AGENT_TOOLS, ...first });
    const call = { messages: sent, withTools: true, ...first, reply, record };

    // A call that failed (context overflow, runtime error) ends the run; its error is logged, never scored as an answer.
    const failure = callFailure(record);
    if (failure !== undefined) {
      calls.push({ ...call, toolCalls: [] });
      return { calls, answer: "", outcome: "error", error: failure };
    }

    // No tool call: the model is done, and its reply is the answer.
    const blocks = toolCallBlocks(reply);
    if (blocks.length === 0) {
      calls.push({ ...call, toolCalls: [] });
      return { calls, answer: reply, outcome: "answered" };
    }

    // Otherwise the reply (forced prefix included) joins the transcript, and every call runs in the order written,
    // each result appended as its own tool message. The study's steps validate nothing beyond parsing.
    messages.push({ role: "assistant", content: reply });
    const toolCalls: ToolCallRecord[] = [];
    for (const block of blocks) {
      const result = await steps.runCall(block, index);
      toolCalls.push(result);
      messages.push({ role: "tool", content: result.result });
    }
    calls.push({ ...call, toolCalls });
  }

  // Still calling tools after the last turn.
  return { calls, answer: RAN_OUT_OF_TURNS, outcome: "ran-out-of-turns" };
}
