// Everything the report page shows, computed once from the log: table rows, comparisons, and each run with its verdicts.
import {
  conditionOf,
  conditionSummary,
  splitQuestionSets,
  splitFailed,
  agentActionRows,
  cutAtTokenLimit,
  citesRightLenient,
  citesRightStrict,
  classifySource,
  compareRuns,
  classifyTwoPostSource,
  citesRightExact,
  explainSource,
  explainTwoPostSource,
  foundAll,
  formatMismatchRows,
  strictRows,
  studyRows,
  twoPostRows,
  type AgentActionsRow,
  type Comparison,
  type FormatMismatchRow,
  type QuestionSet,
  type SourceClass,
  type StrictRow,
  type StudyRow,
  type TwoPostClass,
  type TwoPostRow,
  type ScaleTable,
  type CutRun,
} from "../scoring/index.ts";
import {
  goldHeadingsOf,
  goldPostsOf,
  isTwoPostAnswer,
  type AnswerRecord,
  type RunManifest,
  type RunProgress,
} from "../runs/index.ts";
import { DESIGN_LABELS, type DesignId } from "../designs/index.ts";
import type { ModelLabel } from "./model-labels.ts";
import type { TableContext, TableGrid } from "./tables.ts";
import { runScaleTable } from "./scale-tables.ts";
import { inputsOf, type RecordedInputs } from "./table-inputs.ts";
import { gridsOf } from "./table-list.ts";
import type { RepeatSection } from "./repeat-html.ts";
import { repeatTables } from "./repeat-tables.ts";

/** One run as the transcript browser shows it: the logged fields it needs, plus its scores and why. */
export interface ReportRun
  extends Pick<
    AnswerRecord,
    | "model"
    | "design"
    | "question_id"
    | "question"
    | "answer"
    | "found"
    | "seen_posts"
    | "model_calls"
    | "tool_calls"
    | "malformed"
    | "tokens_read"
    | "seconds"
    | "outcome"
    | "transcript"
  > {
  readonly set: QuestionSet;
  /** The wording the run's prompt was asked in, and which sample of it (0 the first); seed null when greedy. */
  readonly condition: { readonly wording: string; readonly sample: number; readonly seed: number | null };
  /** The posts (one, or two for a two-post question) and their headings that answer the question. */
  readonly gold_posts: readonly string[];
  readonly gold_headings: readonly string[];
  /** Lenient cites right; null for a two-post question, which the study's lenient scorer does not cover. */
  readonly cites_right_lenient: boolean | null;
  /** Strict: one real post, the right one; for a two-post question, exactly the gold posts. */
  readonly cites_right: boolean;
  readonly source: {
    readonly kind: SourceClass | TwoPostClass;
    readonly line: string | null;
    readonly posts: readonly string[];
    readonly why: string;
  };
  readonly error: string | null;
}

export interface ReportData {
  readonly title: string;
  readonly context: TableContext;
  readonly slugsFrom: string;
  /** Model id -> short label (see runModelLabels); design id -> label. */
  readonly models: readonly { readonly id: string; readonly label: string }[];
  readonly designs: readonly { readonly id: DesignId; readonly label: string }[];
  readonly study: readonly StudyRow[];
  readonly strict: readonly StrictRow[];
  /** What the agents did (the study's prose claims), over the one-post questions; empty without agent runs. */
  readonly agents: readonly AgentActionsRow[];
  /** The two-post questions' table; empty for a log of the study's questions only. */
  readonly twoPost: readonly TwoPostRow[];
  readonly comparisons: readonly Comparison[];
  /** "What the engineering bought" (beyond the study); empty for a log without engineered designs. */
  readonly engineering: readonly TableGrid[];
  /** Beyond the study: the key-fact table per question set; empty when the log's questions carry no facts. */
  readonly keyFacts: readonly TableGrid[];
  /** Beyond the study: the model judge's table per question set (rescore --judge); empty for a folder not judged. */
  readonly judge: readonly TableGrid[];
  /** Beyond the study: the withheld-source test against a second folder (report --against); empty without one. */
  readonly withholding: readonly TableGrid[];
  /** Beyond the study: per agent row, replies that look like a call in another tool-call format than the one parsed. */
  readonly formatMismatch: readonly FormatMismatchRow[];
  /** Every logged run, failed ones included (the browser shows their error); only `scored` ones are in the tables. */
  readonly runs: readonly ReportRun[];
  /** The runs left out of every table and comparison because their model call failed. */
  readonly failed: readonly { readonly model: string; readonly design: DesignId; readonly set: QuestionSet }[];
  readonly manifest: RunManifest | null;
  /** Beyond the study: each design against model size, for a run of two or more sized models; null otherwise. */
  readonly scale: ScaleTable | null;
  /** Beyond the study: the samples' and wordings' tables; absent for one greedy pass of the default wording. */
  readonly repeats?: RepeatSection;
  /** Set while the run writing the folder has runs left (see runInProgress); null for a finished or stopped run. */
  readonly progress: RunProgress | null;
  /** Scored runs whose last reply stopped at the token limit (their answer may be cut short). */
  readonly cutAtTokenLimit: readonly CutRun[];
}

/**
 * `all` is the whole log; runs whose call failed are left out of every table (see splitFailed) and counted.
 * `recorded`: what the folder records beside its log (see tableInputs); none for a log alone.
 */
export function reportData(
  title: string,
  all: readonly AnswerRecord[],
  slugs: readonly string[],
  context: TableContext,
  manifest: RunManifest | undefined,
  slugsFrom: string,
  progress?: RunProgress,
  recorded?: RecordedInputs,
): ReportData {
  const { scored: records, failed } = splitFailed(all);
  const tables = inputsOf({ records: all, slugs, context, manifest }, recorded);
  const models = [...new Set(all.map((r) => r.model))];
  const designs = (Object.keys(DESIGN_LABELS) as DesignId[]).filter((v) => all.some((r) => r.design === v));
  return {
    title,
    context: { ...context, conditions: conditionSummary(all) },
    slugsFrom,
    models: models.map((id) => ({ id, label: tables.label(id) })),
    designs: designs.map((id) => ({ id, label: DESIGN_LABELS[id] })),
    study: studyRows(records, failed),
    strict: strictRows(records, slugs),
    agents: agentActionRows(records, slugs),
    twoPost: twoPostRows(records, slugs, failed),
    comparisons: compareRuns(records, slugs),
    engineering: gridsOf("engineering", tables),
    keyFacts: gridsOf("key-facts", tables),
    judge: gridsOf("judge", tables),
    withholding: gridsOf("withholding", tables),
    formatMismatch: formatMismatchRows(records, (id) => manifest?.models.find((m) => m.id === id)?.toolFormat),
    runs: all.map((r) => reportRun(r, slugs)),
    failed: failed.map((r) => ({
      model: r.model,
      design: r.design,
      set: isTwoPostAnswer(r) ? ("two-post" as const) : ("one-post" as const),
    })),
    manifest: manifest ?? null,
    scale: runScaleTable(records, slugs, manifest) ?? null,
    ...repeatsOf(records, slugs, tables.label),
    progress: progress ?? null,
    cutAtTokenLimit: cutAtTokenLimit(records),
  };
}

/** The repeat section's field, left out of a log without samples or wordings so that its page is what it was. */
function repeatsOf(
  records: readonly AnswerRecord[],
  slugs: readonly string[],
  label: ModelLabel,
): { repeats?: RepeatSection } {
  const tables = repeatTables(splitQuestionSets(records).onePost, slugs, label);
  if (tables === undefined) return {};
  const { grids, sentences, conditions, designRates } = tables;
  return { repeats: { grids, sentences, conditions, designRates } };
}

function reportRun(r: AnswerRecord, slugs: readonly string[]): ReportRun {
  const common = {
    model: r.model,
    design: r.design,
    question_id: r.question_id,
    question: r.question,
    condition: { ...conditionOf(r), seed: r.seed ?? null },
    gold_posts: goldPostsOf(r),
    gold_headings: goldHeadingsOf(r),
    answer: r.answer,
    seen_posts: r.seen_posts,
    model_calls: r.model_calls,
    tool_calls: r.tool_calls,
    malformed: r.malformed,
    tokens_read: r.tokens_read,
    seconds: r.seconds,
    outcome: r.outcome,
    error: r.error ?? null,
    transcript: r.transcript,
  };
  if (isTwoPostAnswer(r)) {
    const verdict = classifyTwoPostSource(r.answer, r.gold_posts, slugs);
    const why = explainTwoPostSource(verdict, r.gold_posts);
    return {
      ...common,
      set: "two-post",
      // found for a two-post question: the run's searches and reads showed every gold post.
      found: foundAll(r),
      cites_right_lenient: null,
      cites_right: citesRightExact(verdict),
      source: { kind: verdict.kind, line: verdict.line ?? null, posts: verdict.posts, why },
    };
  }
  const verdict = classifySource(r.answer, slugs);
  return {
    ...common,
    set: "one-post",
    found: r.found,
    cites_right_lenient: citesRightLenient(r.answer, r.gold_post),
    cites_right: citesRightStrict(verdict, r.gold_post),
    source: {
      kind: verdict.kind,
      line: verdict.line ?? null,
      posts: verdict.posts,
      why: explainSource(verdict, r.gold_post, r.seen_posts),
    },
  };
}
