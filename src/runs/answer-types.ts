// One line of answers.jsonl, the record of one run as users read it: its schema, and the types read from it.
import { z } from "zod";
import { field, type Immutable } from "../common/index.ts";
import { DESIGN_IDS, VALIDATION_KINDS, outcomeSchema, transcriptSchema } from "../designs/index.ts";

export const ANSWER_SCHEMA_VERSION = 1;

const { arrayOf, count, flag, nonNegative, object, oneOf, text } = field;

/** The fields every log line has. Field names are snake_case: this is the file format users read. */
const answerFieldsSchema = object({
  schema: oneOf([ANSWER_SCHEMA_VERSION]),
  model: text,
  design: oneOf(DESIGN_IDS).describe("The design's id (logs written before the name changed call it `variant`)."),
  question_id: text,
  wording: text
    .optional()
    .describe("Beyond the study: the id of the prompt wording the run used (run --wordings); absent: the default."),
  sample: count
    .optional()
    .describe("Beyond the study: which of the run's samples this is, from 0 (run --samples); absent: 0."),
  seed: count
    .optional()
    .describe(
      "Beyond the study: the seed the run sampled with, derived from --seed and the run's key; absent: greedy.",
    ),
  question: text,
  facts: arrayOf(arrayOf(text))
    .optional()
    .describe(
      "Beyond the study: the question's key facts (each a list of accepted phrasings), logged as the gold is, so " +
        "that the key-fact scorers read the log alone. Absent for a question without facts and in older logs.",
    ),
  answer: text,
  found: flag.describe(
    "A search in this run returned the gold post (for a two-post question: every post of gold_posts).",
  ),
  model_calls: count,
  tool_calls: count,
  malformed: count,
  ignored_call_blocks: count
    .optional()
    .describe(
      "Beyond the study: <tool_call> tags in the replies of calls made with tools that opened no call the study's " +
        'pattern took (unclosed, not followed by "{", stray). Absent in logs written before it was counted.',
    ),
  last_context: count.describe("Tokens read by the final call."),
  tokens_read: count.describe("Tokens read by all calls."),
  tokens_evaluated: count.nullable().describe("Tokens evaluated after cache reuse, all calls; null when unknown."),
  tokens_generated: count,
  seconds: nonNegative,
  seen_posts: arrayOf(text).describe("Posts that this run's searches and reads showed the model, in first-seen order."),
  outcome: outcomeSchema,
  error: text.optional(),
  repair_turns: count.optional().describe("Beyond the study, on the cite-checked designs: repair calls made (0 or 1)."),
  first_answer: text
    .optional()
    .describe("The answer before the repair, when there was one (it is logged, `answer` is scored)."),
  repair_tokens_read: count.optional().describe("Tokens read by the repair call (0 without one)."),
  validation_errors: z
    .partialRecord(z.enum(VALIDATION_KINDS), count, {
      // Its other issue is a key outside the set (zod's types leave that code out of the union).
      error: (issue) => (issue.code === "invalid_type" ? "an object" : `not one of ${VALIDATION_KINDS.join(", ")}`),
    })
    .optional()
    .describe(
      "Beyond the study, on agent-validated: calls the validation step refused, by kind (kinds with none left out).",
    ),
  tool_block_tokens: count
    .optional()
    .describe(
      "Beyond the study: tokens of the rendered tool block (the schemas the template puts in the system prompt), " +
        "summed over the calls made with tools; absent where the runtime cannot tell.",
    ),
  transcript: transcriptSchema,
});

/** A question in the study's shape logs `gold_post` and `gold_heading`, as every log before two-post questions did. */
export const onePostLineSchema = answerFieldsSchema.extend({ gold_post: text, gold_heading: text });
/** A two-post question logs `gold_posts` and `gold_headings` instead. */
export const twoPostLineSchema = answerFieldsSchema.extend({
  gold_posts: arrayOf(text).describe("The question's gold set G: every post it needs, in the questions file's order."),
  gold_headings: arrayOf(text),
});
export const answerLineSchema = z
  .union([onePostLineSchema, twoPostLineSchema])
  .describe("One line of answers.jsonl: the record of one run of one design on one question by one model.");

export type OnePostAnswer = Immutable<z.output<typeof onePostLineSchema>>;
export type TwoPostAnswer = Immutable<z.output<typeof twoPostLineSchema>>;
export type AnswerRecord = OnePostAnswer | TwoPostAnswer;
/** The fields every log line has. */
export type AnswerFields = Immutable<z.output<typeof answerFieldsSchema>>;

export function isTwoPostAnswer(r: AnswerRecord): r is TwoPostAnswer {
  return "gold_posts" in r;
}

/** The posts a logged run had to find and cite: [gold_post], or gold_posts. */
export function goldPostsOf(r: AnswerRecord): readonly string[] {
  return isTwoPostAnswer(r) ? r.gold_posts : [r.gold_post];
}

/** The headings, parallel to goldPostsOf. */
export function goldHeadingsOf(r: AnswerRecord): readonly string[] {
  return isTwoPostAnswer(r) ? r.gold_headings : [r.gold_heading];
}

/** Whether a run ended with a server refusing its last call in a way that asking again cannot change. */
export function serverRefused(r: AnswerRecord): boolean {
  return r.outcome === "error" && r.transcript.calls.at(-1)?.record.stopReason === "refused";
}

/**
 * Whether a resume runs this logged run again: a call error may be transient (a server down past its retries), or
 * answered by a larger --context-size; a refusal is not, since the same request fails again (greedy decoding, or a
 * sampled run's own seed, writes the same reply).
 */
export function rerunOnResume(r: AnswerRecord): boolean {
  return r.outcome === "error" && !serverRefused(r);
}
