// One line of answers.jsonl: the record of one run, as users read it.
import type { DesignId } from "../designs/index.ts";
import type { Outcome, Transcript, ValidationKind } from "../designs/index.ts";

export const ANSWER_SCHEMA_VERSION = 1;

/**
 * One line of answers.jsonl. Field names are snake_case: this is the file format users read. A question in the
 * study's shape logs `gold_post` and `gold_heading`, as every log before two-post questions did; a two-post
 * question logs `gold_posts` and `gold_headings` instead.
 */
export type AnswerRecord = OnePostAnswer | TwoPostAnswer;

export interface OnePostAnswer extends AnswerFields {
  readonly gold_post: string;
  readonly gold_heading: string;
}

export interface TwoPostAnswer extends AnswerFields {
  /** The question's gold set G: every post it needs, in the questions file's order. */
  readonly gold_posts: readonly string[];
  readonly gold_headings: readonly string[];
}

/** The fields every log line has. */
export interface AnswerFields {
  readonly schema: typeof ANSWER_SCHEMA_VERSION;
  readonly model: string;
  readonly design: DesignId;
  readonly question_id: string;
  readonly question: string;
  readonly answer: string;
  /** A search in this run returned the gold post (for a two-post question: every post of G). */
  readonly found: boolean;
  readonly model_calls: number;
  readonly tool_calls: number;
  readonly malformed: number;
  /**
   * Beyond the study: <tool_call> tags in the replies of calls made with tools that opened no call the study's
   * pattern took (unclosed, not followed by "{", stray). Absent in logs written before it was counted.
   */
  readonly ignored_call_blocks?: number;
  /** Tokens read by the final call. */
  readonly last_context: number;
  /** Tokens read by all calls. */
  readonly tokens_read: number;
  /** Tokens evaluated after cache reuse, all calls; null when unknown. */
  readonly tokens_evaluated: number | null;
  readonly tokens_generated: number;
  readonly seconds: number;
  /** Posts that this run's searches and reads showed the model, in first-seen order. */
  readonly seen_posts: readonly string[];
  readonly outcome: Outcome;
  readonly error?: string;
  /** Beyond the study, on the cite-checked designs: repair calls made (0 or 1). */
  readonly repair_turns?: number;
  /** The answer before the repair, when there was one (it is logged, `answer` is scored). */
  readonly first_answer?: string;
  /** Tokens read by the repair call (0 without one). */
  readonly repair_tokens_read?: number;
  /** Beyond the study, on agent-validated: calls the validation step refused, by kind (kinds with none left out). */
  readonly validation_errors?: Readonly<Partial<Record<ValidationKind, number>>>;
  /**
   * Beyond the study: tokens of the rendered tool block (the schemas the template puts in the system prompt), summed
   * over the calls made with tools; absent where the runtime cannot tell.
   */
  readonly tool_block_tokens?: number;
  readonly transcript: Transcript;
}

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
