// What a design produces: one transcript per run, its model calls and the tool calls they made.
import type { Hit } from "../search/index.ts";
import type { CallRecord, ChatMessage, GenerateConstraint } from "../llm/index.ts";

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
