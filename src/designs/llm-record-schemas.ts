// Schemas of the llm and search records a transcript embeds; tsc checks each against the type it mirrors.
import { z } from "zod";
import { field, type Immutable, typesAgree } from "../common/index.ts";
import type { CallRecord, ChatMessage, GenerateConstraint, MessageToolCall } from "../llm/index.ts";
import type { Hit } from "../search/index.ts";

const { count, nonNegative, object, oneOf, text, undefinable } = field;

export const hitSchema = object({ post: text, heading: text, snippet: text });
typesAgree<Immutable<z.output<typeof hitSchema>>, Hit>(true);

const messageToolCallSchema = object({
  id: text,
  type: oneOf(["function"]),
  function: object({ name: text, arguments: z.unknown() }),
});
typesAgree<Immutable<z.output<typeof messageToolCallSchema>>, MessageToolCall>(true);

export const chatMessageSchema = object({
  role: oneOf(["system", "user", "assistant", "tool"]),
  content: text,
  tool_calls: field.arrayOf(messageToolCallSchema).optional(),
  tool_call_id: text.optional(),
  tools: text.optional(),
}).meta({
  id: "ChatMessage",
  description: "A chat message as the chat template sees it; absent fields were not passed to it.",
});
typesAgree<Immutable<z.output<typeof chatMessageSchema>>, ChatMessage>(true);

export const generateConstraintSchema = object({ kind: oneOf(["tool-call"]), maxStringChars: count });
typesAgree<Immutable<z.output<typeof generateConstraintSchema>>, GenerateConstraint>(true);

const STOP_REASONS = ["eos", "max-tokens", "context-overflow", "refused", "error"] as const;
const callCost = {
  tokensRead: count,
  tokensEvaluated: undefinable(count),
  tokensGenerated: count,
  seconds: nonNegative,
  toolBlockTokens: count.optional(),
  response: z.unknown().optional(),
};

/** Tagged by why the call stopped: a failed call carries its error. */
export const callRecordSchema = z
  .discriminatedUnion(
    "stopReason",
    [
      object({ ...callCost, stopReason: oneOf(["eos", "max-tokens"]) }),
      object({ ...callCost, stopReason: oneOf(["context-overflow", "refused", "error"]), error: text }),
    ],
    { error: (issue) => (issue.code === "invalid_union" ? field.expectedOneOf(STOP_REASONS) : "an object") },
  )
  .meta({
    id: "CallRecord",
    description:
      'One model call\'s accounting, tagged by why it stopped: "eos" or "max-tokens" with a reply, or a failure with its ' +
      'error ("refused": the server refuses what the request carries, and the same request fails again).',
  });
typesAgree<Immutable<z.output<typeof callRecordSchema>>, CallRecord>(true);
