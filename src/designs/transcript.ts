// What a design produces: one transcript per run, its model calls and the tool calls they made, as schemas and types.
import { z } from "zod";
import { field, type Immutable } from "../common/index.ts";
import { callRecordSchema, chatMessageSchema, generateConstraintSchema, hitSchema } from "./llm-record-schemas.ts";

const { arrayOf, flag, object, oneOf, text, undefinable } = field;

/** Why a validated design refused a call before running it. */
export const VALIDATION_KINDS = [
  "not-json",
  "not-an-object",
  "unknown-tool",
  "missing-argument",
  "extra-argument",
  "wrong-type",
  "no-such-post",
  "no-such-heading",
] as const;
export type ValidationKind = (typeof VALIDATION_KINDS)[number];

const toolCallRecordSchema = object({
  raw: text.describe(
    "The call's text as the study's pattern captured it (from \"{\" to before </tool_call>); in chat mode the " +
      "server's tool call, as JSON (id, type, function with name and arguments). The workflow's: the query.",
  ),
  name: undefinable(text),
  arguments: undefinable(z.unknown()),
  result: text.describe(
    'What was appended as the tool message: Python json.dumps of the result, or "error: <Type>: <message>".',
  ),
  malformed: flag,
  shownPosts: arrayOf(text).describe("Posts this call showed the model (search hits, or the section read)."),
  validation: oneOf(VALIDATION_KINDS)
    .optional()
    .describe(
      "Beyond the study: what the validation step refused the call for (agent-validated only); the call did not run.",
    ),
}).meta({
  id: "ToolCallRecord",
  description: "One tool call the loop ran (or failed to), or the workflow's own search.",
});
/** One tool call the loop ran (or failed to), or the workflow's own search. */
export type ToolCallRecord = Immutable<z.output<typeof toolCallRecordSchema>>;

const modelCallSchema = object({
  messages: arrayOf(chatMessageSchema),
  withTools: flag,
  prefix: text.optional(),
  constraint: generateConstraintSchema
    .optional()
    .describe("Beyond the study: the reply was decoded under this constraint (agent-constrained's first call)."),
  toolChoice: oneOf(["required"])
    .optional()
    .describe('Chat mode\'s forced call: the request asked the server for tool_choice "required".'),
  reply: text,
  record: callRecordSchema,
  toolCalls: arrayOf(toolCallRecordSchema).describe(
    "The tool calls parsed from this reply and run, in the order written.",
  ),
}).meta({ id: "ModelCall", description: "One model call: what went in, what came out, what it cost." });
/** One model call: what went in, what came out, what it cost. */
export type ModelCall = Immutable<z.output<typeof modelCallSchema>>;

const OUTCOMES = ["answered", "ran-out-of-turns", "error"] as const;
export const outcomeSchema = oneOf(OUTCOMES);

/** What every transcript holds, whatever its outcome. */
const transcriptCalls = {
  retrieval: object({ query: text, hits: arrayOf(hitSchema) })
    .optional()
    .describe("The workflow's search, before its one call (absent for agents)."),
  calls: arrayOf(modelCallSchema),
};
const repair = object({ firstAnswer: text, problem: text })
  .optional()
  .describe(
    "Beyond the study, on the cite-checked designs: the run's first answer failed the source check and one more call " +
      '(the last in `calls`) asked for a corrected one; `answer` is that call\'s reply (or "" when that call failed).',
  );

/** Beyond the study: the checks an engineered design adds to a run, which the answer line's own measures follow. */
export const TRANSCRIPT_CHECKS = ["cite-check", "validate-calls"] as const;
const checks = arrayOf(oneOf(TRANSCRIPT_CHECKS))
  .optional()
  .describe(
    "Beyond the study: the checks this run took: cite-check (its answer's Source line checked, and repaired at most " +
      "once; the line's repair_turns), validate-calls (each call validated before it ran; its validation_errors).",
  );

export const transcriptSchema = z
  .discriminatedUnion(
    "outcome",
    [
      object({ ...transcriptCalls, answer: text, outcome: oneOf(["answered", "ran-out-of-turns"]), repair, checks }),
      // The log keeps `answer` on every line; a failed run has none, and it is never scored as one.
      object({ ...transcriptCalls, answer: oneOf([""]), outcome: oneOf(["error"]), error: text, repair, checks }),
    ],
    { error: (issue) => (issue.code === "invalid_union" ? field.expectedOneOf(OUTCOMES) : "an object") },
  )
  .meta({
    id: "Transcript",
    description:
      'One run of a design, tagged by its outcome: an answer (or "(ran out of turns)"), or the error of a failed call.',
  });
/** One run of a design, tagged by its outcome: an answer (or "(ran out of turns)"), or the error of a failed call. */
export type Transcript = Immutable<z.output<typeof transcriptSchema>>;
