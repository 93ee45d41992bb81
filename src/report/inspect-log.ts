// A run folder as Inspect evaluation logs (one per model, one sample per run), for Inspect's log viewer.
import { createHash } from "node:crypto";
import { DESIGN_LABELS, DEFAULT_WORDING_ID } from "../designs/index.ts";
import { reportPage, type ReportRun } from "./report-data.ts";
import type { ReadRun } from "./read-run-folder.ts";

/** The Inspect log format version these logs are written in (inspect_ai's EvalLog.version). */
const INSPECT_LOG_VERSION = 2;

/** The scores each sample carries, as Inspect names scorers, and what each one reads. */
const SCORERS = [
  { name: "found", of: (r: ReportRun) => r.found, what: "a search in the run returned the right post" },
  {
    name: "cites_right_strict",
    of: (r: ReportRun) => r.cites_right,
    what: 'the text after the last "Source:" names exactly the gold post(s) of the blog',
  },
] as const;

/** A logged chat message, as the run's transcript holds it. */
type ChatMessage = ReportRun["transcript"]["calls"][number]["messages"][number];

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** How the runs decoded, for GenerateConfig: greedy, or sampled with the manifest's values (null: the model's own). */
interface Decoding {
  readonly maxTokens: number | null;
  readonly temperature: number | null;
  readonly topP: number | null;
  readonly topK: number | null;
}

/** Inspect's GenerateConfig with every field unset but the decoding's (every field is required, null for unset). */
function generateConfig(decoding: Decoding): Record<string, Json> {
  const fields = [
    "max_retries",
    "timeout",
    "attempt_timeout",
    "max_connections",
    "system_message",
    "top_p",
    "temperature",
    "stop_seqs",
    "best_of",
    "frequency_penalty",
    "presence_penalty",
    "logit_bias",
    "seed",
    "top_k",
    "num_choices",
    "logprobs",
    "top_logprobs",
    "parallel_tool_calls",
    "internal_tools",
    "max_tool_output",
    "cache_prompt",
    "verbosity",
    "effort",
    "reasoning_effort",
    "reasoning_tokens",
    "reasoning_summary",
    "reasoning_history",
    "response_schema",
    "extra_headers",
    "extra_body",
    "modalities",
    "cache",
    "batch",
  ];
  return {
    ...Object.fromEntries(fields.map((f) => [f, null])),
    max_tokens: decoding.maxTokens,
    temperature: decoding.temperature,
    top_p: decoding.topP,
    top_k: decoding.topK,
  };
}

function evalConfig(epochs: number): Record<string, Json> {
  const fields = [
    "limit",
    "sample_id",
    "sample_shuffle",
    "epochs_reducer",
    "approval",
    "fail_on_error",
    "continue_on_fail",
    "retry_on_error",
    "message_limit",
    "token_limit",
    "time_limit",
    "working_limit",
    "cost_limit",
    "max_samples",
    "max_dataset_memory",
    "max_tasks",
    "max_subprocesses",
    "max_sandboxes",
    "sandbox_cleanup",
    "log_samples",
    "log_realtime",
    "log_images",
    "log_model_api",
    "log_buffer",
    "log_shared",
    "score_display",
  ];
  return { ...Object.fromEntries(fields.map((f) => [f, null])), epochs };
}

const usage = (input: number, output: number) => ({
  input_tokens: input,
  output_tokens: output,
  total_tokens: input + output,
  input_tokens_cache_write: null,
  input_tokens_cache_read: null,
  reasoning_tokens: null,
  total_cost: null,
});

/** One chat message as Inspect writes it; a tool message names its call, an assistant's calls are in its text. */
function message(m: ChatMessage, model: string | null): Record<string, Json> {
  const common = { id: null, content: m.content, source: null, metadata: null };
  if (m.role === "system") return { ...common, role: "system" };
  if (m.role === "user") return { ...common, role: "user", tool_call_id: null };
  if (m.role === "tool")
    return { ...common, role: "tool", tool_call_id: m.tool_call_id ?? null, function: null, error: null };
  return { ...common, source: "generate", role: "assistant", tool_calls: null, model };
}

/**
 * A run's sample id: one per design, question and wording, so that Inspect sees a wording as its own sample and the
 * repeated samples of one prompt as its epochs (the default wording keeps the plain id).
 */
function sampleId(r: ReportRun): string {
  const id = `${r.design}/${r.question_id}`;
  return r.condition.wording === DEFAULT_WORDING_ID ? id : `${id}/${r.condition.wording}`;
}

/** One run as a sample: the last call's conversation and reply, the verdicts as scores, the costs as metadata. */
function sample(r: ReportRun, index: number): Record<string, Json> {
  const calls = r.transcript.calls;
  const last = calls.at(-1);
  const messages = [
    ...(last?.messages ?? []).map((m) => message(m, null)),
    ...(last === undefined ? [] : [message({ role: "assistant", content: last.reply }, r.model)]),
  ];
  const input = calls.reduce((n, c) => n + c.record.tokensRead, 0);
  const output = calls.reduce((n, c) => n + c.record.tokensGenerated, 0);
  const stop = last?.record.stopReason === "max-tokens" ? "max_tokens" : "stop";
  const scores = Object.fromEntries(
    SCORERS.map((s) => [
      s.name,
      {
        value: s.of(r) ? 1 : 0,
        answer: r.source.line,
        explanation: s.name === "found" ? `seen posts: ${r.seen_posts.join(", ") || "none"}` : r.source.why,
        metadata: null,
        history: [],
      },
    ]),
  );
  return {
    id: sampleId(r),
    // Inspect counts epochs from 1; blogqa's samples from 0.
    epoch: r.condition.sample + 1,
    input: r.question,
    choices: null,
    target: [...r.gold_posts],
    sandbox: null,
    files: null,
    setup: null,
    messages,
    output: {
      model: r.model,
      choices: [
        { message: message({ role: "assistant", content: r.answer }, r.model), stop_reason: stop, logprobs: null },
      ],
      completion: r.answer,
      usage: usage(input, output),
      time: r.seconds,
      metadata: null,
      error: r.error,
    },
    scores: r.outcome === "error" ? null : scores,
    metadata: {
      design: r.design,
      design_label: DESIGN_LABELS[r.design],
      question_id: r.question_id,
      wording: r.condition.wording,
      sample: r.condition.sample,
      seed: r.condition.seed,
      gold_headings: [...r.gold_headings],
      outcome: r.outcome,
      model_calls: r.model_calls,
      tool_calls: r.tool_calls,
      tokens_read: r.tokens_read,
      run_index: index,
    },
    store: {},
    events: [],
    timelines: null,
    model_usage: { [r.model]: usage(input, output) },
    role_usage: {},
    started_at: null,
    completed_at: null,
    total_time: r.seconds,
    working_time: r.seconds,
    uuid: null,
    invalidation: null,
    error: r.error === null ? null : { message: r.error, traceback: "", traceback_ansi: "" },
    error_retries: null,
    attachments: {},
    events_data: null,
    limit: null,
  };
}

/**
 * The folder's runs as one Inspect log per model, in the log's model order, each with the model's label in the
 * folder's tables; `created` is the manifest's start.
 */
export function inspectLogs(
  folder: ReadRun,
): { readonly model: string; readonly label: string; readonly log: Record<string, Json> }[] {
  const { data } = reportPage("", folder);
  const manifest = folder.manifest;
  const created = manifest?.started_at ?? new Date(0).toISOString();
  const settings = (manifest?.settings ?? {}) as Record<string, Json>;
  const number = (v: Json | undefined) => (typeof v === "number" ? v : null);
  const maxTokens = number(settings.max_new_tokens);
  const sampled = folder.records.some((r) => r.seed !== undefined);
  const decoding: Decoding = sampled
    ? {
        maxTokens,
        temperature: number(settings.temperature),
        topP: number(settings.top_p),
        topK: number(settings.top_k),
      }
    : { maxTokens, temperature: 0, topP: null, topK: null };
  return data.models.map(({ id: model, label }) => {
    const runs = data.runs.filter((r) => r.model === model);
    const id = createHash("sha256").update(`${folder.dir}\n${model}`).digest("hex").slice(0, 22);
    const scored = runs.filter((r) => r.outcome !== "error");
    const results = SCORERS.map((s) => {
      const mean = scored.length === 0 ? 0 : scored.filter((r) => s.of(r)).length / scored.length;
      return {
        name: s.name,
        scorer: s.name,
        reducer: null,
        scored_samples: scored.length,
        unscored_samples: runs.length - scored.length,
        params: {},
        metrics: { accuracy: { name: "accuracy", value: mean, params: {}, metadata: null } },
        metadata: { means: s.what },
      };
    });
    const input = runs.reduce((n, r) => n + r.transcript.calls.reduce((m, c) => m + c.record.tokensRead, 0), 0);
    const output = runs.reduce((n, r) => n + r.transcript.calls.reduce((m, c) => m + c.record.tokensGenerated, 0), 0);
    const designs = [...new Set(runs.map((r) => r.design))];
    const ids = [...new Set(runs.map(sampleId))];
    const epochs = Math.max(1, ...runs.map((r) => r.condition.sample + 1));
    const log: Record<string, Json> = {
      version: INSPECT_LOG_VERSION,
      status: folder.progress === undefined ? "success" : "started",
      eval: {
        eval_set_id: null,
        eval_id: id,
        run_id: id,
        created,
        task: "blogqa",
        task_id: id,
        task_version: 0,
        task_file: null,
        task_display_name: "blogqa: questions about a blog",
        task_registry_name: null,
        task_attribs: {},
        task_args: {},
        task_args_passed: {},
        solver: designs.join(","),
        solver_args: null,
        solver_args_passed: null,
        tags: null,
        dataset: {
          name: manifest?.questions.file ?? null,
          location: manifest?.questions.file ?? null,
          samples: ids.length,
          sample_ids: ids,
          shuffled: false,
        },
        sandbox: null,
        model,
        model_generate_config: generateConfig(decoding),
        model_base_url: null,
        model_args: {},
        model_roles: null,
        config: evalConfig(epochs),
        revision:
          manifest?.blogqa.git_commit != null
            ? { type: "git", origin: "blogqa", commit: manifest.blogqa.git_commit, dirty: manifest.blogqa.git_dirty }
            : null,
        packages: { blogqa: manifest?.blogqa.version ?? "unknown" },
        metadata: { settings, corpus: (manifest?.corpus ?? null) as Json, scored_against: folder.slugsFrom },
        scorers: SCORERS.map((s) => ({
          name: s.name,
          options: null,
          metrics: [{ name: "accuracy", options: null }],
          metadata: null,
        })),
        metrics: null,
      },
      plan: {
        name: "plan",
        steps: designs.map((d) => ({ solver: d, params: {}, params_passed: {} })),
        finish: null,
        config: generateConfig(decoding),
      },
      results: {
        total_samples: runs.length,
        completed_samples: scored.length,
        early_stopping: null,
        scores: results,
        metadata: null,
      },
      stats: {
        started_at: created,
        completed_at: manifest?.finished_at ?? "",
        model_usage: { [model]: usage(input, output) },
        role_usage: {},
      },
      error: null,
      invalidated: false,
      log_updates: null,
      tags: [],
      metadata: {},
      samples: runs.map((r, i) => sample(r, i)),
      reductions: null,
      location: "",
      etag: null,
      eval_set_info: null,
    };
    return { model, label, log };
  });
}
