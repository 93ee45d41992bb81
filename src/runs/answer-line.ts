// The shape of one answers.jsonl line, checked field by field when a log is read: a line of another shape is
// named with its field instead of being scored wrong, or dropped, without a word.
// Each field list `satisfies` the type it checks, so a field added to a record without its check fails tsc here.
import type { CallRecord, ChatMessage, Role, StopReason } from "../llm/index.ts";
import type { Hit } from "../search/index.ts";
import {
  arrayOf,
  anything,
  boolean,
  count,
  keysOf,
  literal,
  nonNegative,
  nullable,
  object,
  optional,
  string,
  type FieldsOf,
  type Shape,
  type ShapeMismatch,
} from "./shape.ts";
import {
  ANSWER_SCHEMA_VERSION,
  type AnswerFields,
  type AnswerRecord,
  type OnePostAnswer,
  type TwoPostAnswer,
} from "./answer-types.ts";
import {
  DESIGN_IDS,
  VALIDATION_KINDS,
  type ModelCall,
  type Outcome,
  type ToolCallRecord,
  type Transcript,
} from "../designs/index.ts";

const OUTCOMES = keysOf({ answered: 1, "ran-out-of-turns": 1, error: 1 } satisfies Record<Outcome, 1>);
const STOP_REASONS = keysOf({ eos: 1, "max-tokens": 1, "context-overflow": 1, error: 1 } satisfies Record<
  StopReason,
  1
>);
const ROLES = keysOf({ system: 1, user: 1, assistant: 1, tool: 1 } satisfies Record<Role, 1>);

const hit = object({ post: string, heading: string, snippet: string } satisfies FieldsOf<Hit>);

const toolCall = object({
  raw: string,
  name: optional(string),
  arguments: optional(anything),
  result: string,
  malformed: boolean,
  shownPosts: arrayOf(string),
  validation: optional(literal(...VALIDATION_KINDS)),
} satisfies FieldsOf<ToolCallRecord>);

const callRecord = object({
  tokensRead: count,
  tokensEvaluated: optional(count),
  tokensGenerated: count,
  stopReason: literal(...STOP_REASONS),
  seconds: nonNegative,
  toolBlockTokens: optional(count),
  error: optional(string),
  response: optional(anything),
} satisfies FieldsOf<CallRecord>);

const modelCall = object({
  messages: arrayOf(
    object({
      role: literal(...ROLES),
      content: string,
      tool_calls: optional(arrayOf(anything)),
      tool_call_id: optional(string),
      tools: optional(string),
    } satisfies FieldsOf<ChatMessage>),
  ),
  withTools: boolean,
  prefix: optional(string),
  constraint: optional(object({ kind: literal("tool-call"), maxStringChars: count })),
  toolChoice: optional(literal("required")),
  reply: string,
  record: callRecord,
  toolCalls: arrayOf(toolCall),
} satisfies FieldsOf<ModelCall>);

/** Every field the README documents for a log line, with its type, but the gold fields (below). */
const answerFields = {
  schema: literal(ANSWER_SCHEMA_VERSION),
  model: string,
  design: literal(...DESIGN_IDS),
  question_id: string,
  question: string,
  answer: string,
  found: boolean,
  model_calls: count,
  tool_calls: count,
  malformed: count,
  ignored_call_blocks: optional(count),
  last_context: count,
  tokens_read: count,
  tokens_evaluated: nullable(count),
  tokens_generated: count,
  seconds: nonNegative,
  seen_posts: arrayOf(string),
  outcome: literal(...OUTCOMES),
  error: optional(string),
  repair_turns: optional(count),
  first_answer: optional(string),
  repair_tokens_read: optional(count),
  validation_errors: optional(countsOf(VALIDATION_KINDS)),
  tool_block_tokens: optional(count),
  transcript: object({
    retrieval: optional(object({ query: string, hits: arrayOf(hit) })),
    calls: arrayOf(modelCall),
    answer: string,
    outcome: literal(...OUTCOMES),
    error: optional(string),
    repair: optional(object({ firstAnswer: string, problem: string })),
  } satisfies FieldsOf<Transcript>),
} satisfies FieldsOf<AnswerFields>;

/** An object of whole counts keyed by some of `kinds` (validation_errors: refused calls by kind). */
function countsOf(kinds: readonly string[]): Shape {
  return (v, p) => {
    const base = object({})(v, p);
    if (base) return base;
    for (const [key, n] of Object.entries(v as object)) {
      const at = `${p}.${key}`;
      if (!kinds.includes(key)) return { path: at, problem: `not one of ${kinds.join(", ")}` };
      const bad = count(n, at);
      if (bad) return bad;
    }
    return undefined;
  };
}

/** A question in the study's shape logs one gold post and heading; a two-post question logs the lists. */
export const onePostLineShape = object({
  ...answerFields,
  gold_post: string,
  gold_heading: string,
} satisfies FieldsOf<OnePostAnswer>);
export const twoPostLineShape = object({
  ...answerFields,
  gold_posts: arrayOf(string),
  gold_headings: arrayOf(string),
} satisfies FieldsOf<TwoPostAnswer>);

/**
 * A parsed line as an AnswerRecord, or the first field that does not fit. The design is read from `design`
 * or, in logs written before the name changed, `variant`; a line with both must agree.
 */
export function answerFromLine(value: unknown): { record: AnswerRecord } | { mismatch: ShapeMismatch } {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { mismatch: { path: "", problem: "not a JSON object" } };
  const line = value as Record<string, unknown>;
  if (!Object.hasOwn(line, "schema")) return { mismatch: { path: "schema", problem: "missing" } };
  if (line.schema !== ANSWER_SCHEMA_VERSION) {
    return {
      mismatch: {
        path: "schema",
        problem: `log schema ${JSON.stringify(line.schema)}; this blogqa reads schema ${ANSWER_SCHEMA_VERSION}`,
      },
    };
  }
  let normalized = line;
  if (Object.hasOwn(line, "variant")) {
    if (Object.hasOwn(line, "design") && line.variant !== line.design) {
      return {
        mismatch: {
          path: "design",
          problem: `${JSON.stringify(line.design)} disagrees with the line's variant ${JSON.stringify(line.variant)}`,
        },
      };
    }
    const { variant, ...rest } = line;
    normalized = { ...rest, design: variant };
  }
  const shape = Object.hasOwn(line, "gold_posts") ? twoPostLineShape : onePostLineShape;
  const mismatch = shape(normalized, "");
  if (!mismatch) return { record: normalized as unknown as AnswerRecord };
  // Name the field as the line spells it.
  const path =
    mismatch.path === "design" && Object.hasOwn(line, "variant") && !Object.hasOwn(line, "design")
      ? "variant"
      : mismatch.path;
  return { mismatch: { ...mismatch, path } };
}
