// The request a logged call was made with, rebuilt from its transcript: what export-prompts renders.
import type { GenerateRequest } from "../llm/index.ts";
import type { ToolDialect } from "../toolcalls/index.ts";
import type { ModelCall } from "./transcript.ts";
import { agentToolsFor, type Wording } from "./wording.ts";

/**
 * A logged call's request as its design sent it: the messages; the tool schemas, with the run's wording's
 * descriptions, where the call offered them and the dialect puts them in the template (as agent-loop.ts and
 * engineered/cite-check.ts do); and the prefix its reply was forced to start with.
 */
export function loggedCallRequest(call: ModelCall, dialect: ToolDialect, wording: Wording): GenerateRequest {
  return {
    messages: call.messages,
    ...(call.withTools && dialect.templateTools ? { tools: agentToolsFor(wording) } : {}),
    ...(call.prefix !== undefined ? { prefix: call.prefix } : {}),
  };
}
