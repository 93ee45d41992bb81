// The records the study writes: one transcript per (model, design, question), one log line per run.
import type { Hit } from "../search/index.ts";
import type { CallRecord, ChatMessage, GenerateConstraint } from "../llm/index.ts";

/** The study's four designs, run as it ran them. */
export type StudyDesignId = "workflow" | "agent" | "agent-search-first" | "agent-forced";
/** Beyond the study: each extends one study design with one piece of engineering (see src/study/engineered/). */
export type EngineeredDesignId =
  | "agent-validated"
  | "agent-cite-checked"
  | "workflow-cite-checked"
  | "agent-constrained";
export type DesignId = StudyDesignId | EngineeredDesignId;

export const STUDY_DESIGNS: readonly StudyDesignId[] = ["workflow", "agent", "agent-search-first", "agent-forced"];
export const ENGINEERED_DESIGNS: readonly EngineeredDesignId[] = [
  "agent-validated",
  "agent-cite-checked",
  "workflow-cite-checked",
  "agent-constrained",
];
/** Every design a log may hold, the study's first: tables list them in this order. */
export const DESIGN_IDS: readonly DesignId[] = [...STUDY_DESIGNS, ...ENGINEERED_DESIGNS];
export const DESIGN_LABELS: Readonly<Record<DesignId, string>> = {
  workflow: "one retrieval, one answer",
  agent: "agent loop",
  "agent-search-first": "agent, 'always search first'",
  "agent-forced": "agent, first call forced",
  "agent-validated": "agent, validated calls",
  "agent-cite-checked": "agent, citation checked",
  "workflow-cite-checked": "one retrieval, citation checked",
  "agent-constrained": "agent, constrained first call",
};
/** The study design each engineered design adds to: the paired tests compare them. */
export const EXTENDS: Readonly<Record<EngineeredDesignId, StudyDesignId>> = {
  "agent-validated": "agent-forced",
  "agent-cite-checked": "agent-forced",
  "workflow-cite-checked": "workflow",
  "agent-constrained": "agent-forced",
};

export function isEngineered(design: DesignId): design is EngineeredDesignId {
  return Object.hasOwn(EXTENDS, design);
}

/** Whether a design runs the tool loop: every one but the workflow and the designs that extend it. */
export function isAgentDesign(design: DesignId): boolean {
  return (isEngineered(design) ? EXTENDS[design] : design) !== "workflow";
}

/** One tool call the loop ran (or failed to), or the workflow's own search. */
export interface ToolCallRecord {
  /**
   * The call's text as the study's pattern captured it (from "{" to before </tool_call>); in chat mode the server's
   * tool call, as JSON (id, type, function with name and arguments). The workflow's: the query.
   */
  readonly raw: string;
  readonly name: string | undefined;
  readonly arguments: unknown;
  /** What was appended as the tool message: Python json.dumps of the result, or "error: <Type>: <message>". */
  readonly result: string;
  readonly malformed: boolean;
  /** Posts this call showed the model (search hits, or the section read). */
  readonly shownPosts: readonly string[];
  /** Beyond the study: what the validation step refused the call for (agent-validated only); the call did not run. */
  readonly validation?: ValidationKind;
}

/** Why a validated design refused a call before running it. */
export type ValidationKind =
  | "not-json"
  | "not-an-object"
  | "unknown-tool"
  | "missing-argument"
  | "extra-argument"
  | "wrong-type"
  | "no-such-post"
  | "no-such-heading";
export const VALIDATION_KINDS: readonly ValidationKind[] = [
  "not-json",
  "not-an-object",
  "unknown-tool",
  "missing-argument",
  "extra-argument",
  "wrong-type",
  "no-such-post",
  "no-such-heading",
];

/** One model call: what went in, what came out, what it cost. */
export interface ModelCall {
  readonly messages: readonly ChatMessage[];
  readonly withTools: boolean;
  readonly prefix?: string;
  /** Beyond the study: the reply was decoded under this constraint (agent-constrained's first call). */
  readonly constraint?: GenerateConstraint;
  /** Chat mode's forced call: the request asked the server for tool_choice "required". */
  readonly toolChoice?: "required";
  readonly reply: string;
  readonly record: CallRecord;
  /** The tool calls parsed from this reply and run, in the order written. */
  readonly toolCalls: readonly ToolCallRecord[];
}

export type Outcome = "answered" | "ran-out-of-turns" | "error";

/** One run of a design, tagged by its outcome: an answer (or "(ran out of turns)"), or the error of a failed call. */
export type Transcript = TranscriptCalls &
  (
    | { readonly outcome: "answered" | "ran-out-of-turns"; readonly answer: string }
    // The log keeps `answer` on every line; a failed run has none, and it is never scored as one.
    | { readonly outcome: "error"; readonly answer: ""; readonly error: string }
  );

/** What every transcript holds, whatever its outcome. */
export interface TranscriptCalls {
  /** The workflow's search, before its one call (absent for agents). */
  readonly retrieval?: { readonly query: string; readonly hits: readonly Hit[] };
  readonly calls: readonly ModelCall[];
  /**
   * Beyond the study, on the cite-checked designs: the run's first answer failed the source check and one more call
   * (the last in `calls`) asked for a corrected one; `answer` is that call's reply (or "" when that call failed).
   */
  readonly repair?: { readonly firstAnswer: string; readonly problem: string };
}

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
