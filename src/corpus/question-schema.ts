// The schema of one line of a questions file, in either shape, and the question types read from it.
import { z } from "zod";
import { field, type Immutable } from "../common/index.ts";

const NON_EMPTY = "a non-empty string";
const text = z.string({ error: NON_EMPTY }).regex(/\S/, { error: NON_EMPTY });
const pair = z.tuple([text, text], { error: "a list of two non-empty strings" });

// An id stands in tables, CSV cells and run keys: no line break or other control character may split it.
const id = text
  .regex(/^[^\p{Cc}]*$/u, { error: "must not hold a line break or other control character" })
  .describe("Unique in the file; answer lines name their question by it.");
const question = text.describe("The question, as the model is asked it.");
const facts = field
  .arrayOf(field.arrayOf(field.text))
  .optional()
  .describe("Optional: the facts a correct answer states, each a list of its accepted phrasings.");
// The weak-fact rules a fact may be cleared of (see weak-facts.ts); each clearing says why the fact stays.
export const WEAK_FACT_RULES = ["common-word", "in-question", "in-both-gold", "negated"] as const;
const cleared = z
  .array(
    z
      .object({
        fact: z.number().int().min(1).describe("The fact's 1-based position in `facts`."),
        rule: z.enum(WEAK_FACT_RULES).describe("The rule whose flag on that fact is cleared."),
        reason: text.describe("Why the fact stays as it is."),
      })
      .strict(),
  )
  .optional()
  .describe("Optional: weak-fact flags (questions check) that stay, each with its reason.");

export const onePostQuestionSchema = z
  .object({
    id,
    question,
    post: text.describe("The slug of the post that answers it."),
    heading: text.describe("The heading of the section that answers it, as the indexer names it."),
    facts,
    cleared,
  })
  .describe("A question in the study's shape: one section of one post answers it.");

export const twoPostQuestionSchema = z
  .object({
    id,
    question,
    posts: pair.describe("The two posts' slugs: two different posts."),
    headings: pair.describe("The heading in each post, in the same order."),
    details: field
      .arrayOf(field.text)
      .optional()
      .describe("Optional: one detail per post, parallel to `posts` (as many, in the same order)."),
    facts,
    cleared,
  })
  .superRefine((q, context) => {
    const [a, b] = q.posts;
    if (a === b)
      context.addIssue({
        code: "custom",
        message: `"posts" names "${a}" twice; a two-post question needs two different posts`,
      });
    if (q.details !== undefined && q.details.length !== q.posts.length)
      context.addIssue({
        code: "custom",
        path: ["details"],
        message: `field "details" has ${q.details.length} entr${q.details.length === 1 ? "y" : "ies"} for ${q.posts.length} posts: give one per post, in the order of "posts"`,
      });
  })
  .describe("A question that needs one section from each of two different posts.");

export const questionLineSchema = z
  .union([onePostQuestionSchema, twoPostQuestionSchema])
  .describe(
    'One line of a questions file: {id, question, post, heading} or {id, question, posts: [a, b], headings: [ha, hb]}; a line with both "post" and "posts" is refused.',
  );

/** One line of a questions file, in the study's shape: one post and one section answer it. */
export type OnePostQuestion = Immutable<z.output<typeof onePostQuestionSchema>>;
/** A question that needs one section from each of two different posts (compare, combine, follow one idea into another). */
export type TwoPostQuestion = Immutable<z.output<typeof twoPostQuestionSchema>>;
/** One line of a questions file: `{id, question, post, heading}` or `{id, question, posts: [a, b], headings: [ha, hb]}`. */
export type Question = OnePostQuestion | TwoPostQuestion;
