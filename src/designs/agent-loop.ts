// The agent loop, as the study ran it: generate, run every tool call the reply wrote, append, repeat.
import type { ChatMessage, GenerateRequest } from "../llm/index.ts";
import { binderOf, runToolCall, type BlogIndex } from "./tools.ts";
import { RAN_OUT_OF_TURNS } from "./prompts.ts";
import { agentSystemFor, agentToolsFor, DEFAULT_WORDING } from "./wording.ts";
import { hermes, type ToolDialect } from "../toolcalls/index.ts";
import { withoutThinking } from "./thinking.ts";
import { MAX_TURNS } from "./limits.ts";
import { callFailure } from "../llm/index.ts";
import type { ModelCall, ToolCallRecord, Transcript } from "./transcript.ts";
import type { StudyDesignId } from "./registry.ts";
import type { DesignRun } from "./runners.ts";

export type AgentDesign = Exclude<StudyDesignId, "workflow">;

/** The two steps a design may swap (the engineered designs do): how one call's text runs, how the first reply starts. */
export interface LoopSteps {
  readonly runCall: (block: string, index: BlogIndex) => Promise<ToolCallRecord>;
  readonly firstReply: Pick<GenerateRequest, "prefix" | "constraint" | "toolChoice">;
}

/**
 * The study's steps: calls run as written; the forced design starts its first reply with the dialect's prefix
 * ("<tool_call>\n" in the study's hermes), or asks a chat server for tool_choice "required".
 */
export function studySteps(design: AgentDesign, dialect: ToolDialect = hermes): LoopSteps {
  const runCall =
    dialect.format === "hermes"
      ? runToolCall
      : (block: string, index: BlogIndex) => runToolCall(block, index, binderOf(dialect));
  return { runCall, firstReply: design === "agent-forced" ? dialect.forced : {} };
}

/** One agent run: a design run, which of the study's agents it is, and (for the engineered designs) its steps. */
export interface AgentRun extends DesignRun {
  readonly design: AgentDesign;
  readonly steps?: LoopSteps;
}

export async function runAgent({
  question,
  design,
  runtime,
  index,
  steps,
  dialect = hermes,
  thinks = false,
  wording = DEFAULT_WORDING,
}: AgentRun): Promise<Transcript> {
  // The dialect decides where the calls are found (in the reply, or beside it from a chat server) and how they go
  // back; the study's is hermes, as written below.
  const loop = steps ?? studySteps(design, dialect);
  const agentTools = agentToolsFor(wording);
  const messages: ChatMessage[] = dialect.openingMessages(agentSystemFor(wording, design), question, agentTools);
  const tools = dialect.templateTools ? { tools: agentTools } : {};
  // The study's hermes keeps nothing: its requests are exactly what they were.
  const keep = dialect.keepTokens.length > 0 ? { keepTokens: dialect.keepTokens } : {};
  const calls: ModelCall[] = [];

  for (let turn = 1; turn <= MAX_TURNS; turn++) {
    const first = turn === 1 ? loop.firstReply : {};
    const sent = [...messages];
    const generation = await runtime.generate({ messages: sent, ...tools, ...keep, ...first });
    const { text: reply, record } = generation;
    const call = { messages: sent, withTools: true, ...first, reply, record };

    // A call that failed (context overflow, runtime error) ends the run; its error is logged, never scored as an answer.
    const failure = callFailure(record);
    if (failure !== undefined) {
      calls.push({ ...call, toolCalls: [] });
      return { calls, answer: "", outcome: "error", error: failure };
    }

    // No tool call: the model is done, and its reply is the answer. A thinking model's <think> block is logged in
    // the reply, but neither answers nor calls; it goes back into the messages as written, for the template to keep
    // or drop (Qwen3's drops it from earlier turns).
    const visible = thinks ? withoutThinking(reply) : reply;
    const blocks = dialect.findCalls(visible, generation.toolCalls);
    if (blocks.length === 0) {
      calls.push({ ...call, toolCalls: [] });
      return { calls, answer: visible, outcome: "answered" };
    }

    // Otherwise every call runs in the order written; then the reply (forced prefix included) and the results join
    // the transcript as the dialect says (the study's: the reply, then each result as its own tool message). The
    // study's steps validate nothing beyond parsing.
    const toolCalls: ToolCallRecord[] = [];
    for (const block of blocks) toolCalls.push(await loop.runCall(block, index));
    messages.push(...dialect.turnMessages(reply, toolCalls, turn));
    calls.push({ ...call, toolCalls });
  }

  // Still calling tools after the last turn.
  return { calls, answer: RAN_OUT_OF_TURNS, outcome: "ran-out-of-turns" };
}
