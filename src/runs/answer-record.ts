// Turns one transcript into its log line: the study's per-run measures, computed in this one place.
import { isTwoPost, type Question } from "../corpus/index.ts";
import { ignoredCallBlocks } from "../toolcalls/index.ts";
import { ANSWER_SCHEMA_VERSION, type AnswerFields, type AnswerRecord } from "./answer-types.ts";
import { DEFAULT_WORDING_ID, type Transcript, type DesignId } from "../designs/index.ts";

/** Beyond the study, what names a run besides its model, design and question: left off the line at its default. */
export interface RunVariant {
  /** The wording's id; undefined or "default" for the default wording. */
  readonly wording?: string;
  /** The sample's index; undefined or 0 for the first. */
  readonly sample?: number;
  /** The seed the run sampled with; undefined when it decoded greedily. */
  readonly seed?: number;
}

export function answerRecord(
  model: string,
  design: DesignId,
  question: Question,
  transcript: Transcript,
  variant: RunVariant = {},
): AnswerRecord {
  const records = transcript.calls.map((c) => c.record);
  const toolCalls = transcript.calls.flatMap((c) => c.toolCalls);
  const searches = toolCalls.filter((t) => t.name === "search_posts" && !t.malformed);
  const retrievedPosts = transcript.retrieval?.hits.map((h) => h.post) ?? [];
  const evaluated = records.map((r) => r.tokensEvaluated);
  const searched = new Set([...retrievedPosts, ...searches.flatMap((s) => s.shownPosts)]);
  const gold = isTwoPost(question)
    ? {
        gold_posts: [...question.posts],
        gold_headings: [...question.headings],
        found: question.posts.every((p) => searched.has(p)),
      }
    : { gold_post: question.post, gold_heading: question.heading, found: searched.has(question.post) };
  return {
    schema: ANSWER_SCHEMA_VERSION,
    model,
    design,
    question_id: question.id,
    ...variantFields(variant),
    question: question.question,
    ...(question.facts !== undefined ? { facts: question.facts.map((f) => [...f]) } : {}),
    ...gold,
    answer: transcript.answer,
    model_calls: records.length,
    // The workflow's own search counts as its one tool call, as in the study's table.
    tool_calls: (transcript.retrieval ? 1 : 0) + toolCalls.length,
    malformed: toolCalls.filter((t) => t.malformed).length,
    ignored_call_blocks: sum(transcript.calls.filter((c) => c.withTools).map((c) => ignoredCallBlocks(c.reply))),
    last_context: records.at(-1)?.tokensRead ?? 0,
    tokens_read: sum(records.map((r) => r.tokensRead)),
    tokens_evaluated: evaluated.every((e) => e !== undefined) ? sum(evaluated as number[]) : null,
    tokens_generated: sum(records.map((r) => r.tokensGenerated)),
    seconds: sum(records.map((r) => r.seconds)),
    seen_posts: [...new Set([...retrievedPosts, ...toolCalls.flatMap((t) => t.shownPosts)])],
    outcome: transcript.outcome,
    ...(transcript.outcome === "error" ? { error: transcript.error } : {}),
    ...engineeringFields(transcript),
    transcript,
  };
}

/** The variant's fields, each left out at its default so that a greedy run of the default wording logs as before. */
function variantFields(v: RunVariant): Partial<AnswerFields> {
  return {
    ...(v.wording !== undefined && v.wording !== DEFAULT_WORDING_ID ? { wording: v.wording } : {}),
    ...(v.sample !== undefined && v.sample !== 0 ? { sample: v.sample } : {}),
    ...(v.seed !== undefined ? { seed: v.seed } : {}),
  };
}

/**
 * The measures beyond the study, from the checks the transcript says its run took (repairs after a citation check,
 * refusals of call validation), and the tool blocks' tokens.
 */
function engineeringFields(t: Transcript): Partial<AnswerFields> {
  const out: { -readonly [K in keyof AnswerFields]?: AnswerFields[K] } = {};
  const checks = t.checks ?? [];
  if (checks.includes("cite-check")) {
    out.repair_turns = t.repair ? 1 : 0;
    out.repair_tokens_read = t.repair ? (t.calls.at(-1)?.record.tokensRead ?? 0) : 0;
    if (t.repair) out.first_answer = t.repair.firstAnswer;
  }
  if (checks.includes("validate-calls")) {
    const kinds: Record<string, number> = {};
    for (const c of t.calls.flatMap((call) => call.toolCalls))
      if (c.validation) kinds[c.validation] = (kinds[c.validation] ?? 0) + 1;
    out.validation_errors = kinds;
  }
  const blocks = t.calls.filter((c) => c.withTools).map((c) => c.record.toolBlockTokens);
  if (blocks.length > 0 && blocks.every((b) => b !== undefined)) out.tool_block_tokens = sum(blocks as number[]);
  return out;
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
