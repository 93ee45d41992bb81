// Hand-built answer records for scoring and report tests: no model, every field chosen.
import { ANSWER_SCHEMA_VERSION, type AnswerRecord } from "../../src/runs/answer-types.ts";
import type { ModelCall, Transcript } from "../../src/designs/transcript.ts";
import type { DesignId } from "../../src/designs/registry.ts";

export interface RecordSpec {
  readonly model?: string;
  readonly design?: DesignId;
  readonly question_id: string;
  readonly gold_post?: string;
  /** Makes a two-post question's record: gold_posts (and headings "H1", "H2") instead of gold_post. */
  readonly gold_posts?: readonly string[];
  readonly answer?: string;
  readonly found?: boolean;
  readonly seen_posts?: readonly string[];
  readonly tokens_read?: number;
  readonly calls?: readonly ModelCall[];
  readonly retrieval?: Transcript["retrieval"];
  readonly facts?: readonly (readonly string[])[];
}

/** One log line with plausible defaults: one call whose reply is the answer (a two-post one when gold_posts is given). */
export function makeRecord(spec: RecordSpec): AnswerRecord {
  const answer = spec.answer ?? "It depends.\nSource: kv-cache-inference";
  const tokens = spec.tokens_read ?? 400;
  const calls: readonly ModelCall[] = spec.calls ?? [
    {
      messages: [
        { role: "system", content: "You answer questions about a technical blog." },
        { role: "user", content: `Question ${spec.question_id}?` },
      ],
      withTools: spec.design !== undefined && spec.design !== "workflow",
      reply: answer,
      record: { tokensRead: tokens, tokensEvaluated: tokens, tokensGenerated: 20, stopReason: "eos", seconds: 0.5 },
      toolCalls: [],
    },
  ];
  const toolCalls = calls.flatMap((c) => c.toolCalls);
  return {
    schema: ANSWER_SCHEMA_VERSION,
    model: spec.model ?? "tiny.gguf",
    design: spec.design ?? "workflow",
    question_id: spec.question_id,
    question: `Question ${spec.question_id}?`,
    ...(spec.facts ? { facts: spec.facts } : {}),
    ...(spec.gold_posts
      ? { gold_posts: spec.gold_posts, gold_headings: spec.gold_posts.map((_, i) => `H${i + 1}`) }
      : { gold_post: spec.gold_post ?? "kv-cache-inference", gold_heading: "Prefill and decode" }),
    answer,
    found: spec.found ?? false,
    model_calls: calls.length,
    tool_calls: (spec.retrieval ? 1 : 0) + toolCalls.length,
    malformed: toolCalls.filter((t) => t.malformed).length,
    last_context: calls.at(-1)?.record.tokensRead ?? 0,
    tokens_read: calls.reduce((a, c) => a + c.record.tokensRead, 0),
    tokens_evaluated: calls.reduce((a, c) => a + (c.record.tokensEvaluated ?? 0), 0),
    tokens_generated: calls.reduce((a, c) => a + c.record.tokensGenerated, 0),
    seconds: calls.reduce((a, c) => a + c.record.seconds, 0),
    seen_posts: spec.seen_posts ?? [],
    outcome: "answered",
    transcript: { ...(spec.retrieval ? { retrieval: spec.retrieval } : {}), calls, answer, outcome: "answered" },
  };
}
