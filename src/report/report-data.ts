// Everything the report page shows, computed once from a folder: every table as `--json` has it, and each run with its
// verdicts for the transcript browser.
import {
  conditionOf,
  citesRightLenient,
  citesRightStrict,
  classifySource,
  classifyTwoPostSource,
  citesRightExact,
  explainSource,
  explainTwoPostSource,
  foundAll,
  type QuestionSet,
  type SourceClass,
  type TwoPostClass,
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
import { logDesigns } from "./page-sections.ts";
import { inputsOf, type RecordedInputs, type TableFolder } from "./table-inputs.ts";
import { tablesJson, type TableInputs, type TablesJson } from "./table-list.ts";

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
  readonly slugsFrom: string;
  /** Model id -> short label (see runModelLabels); design id -> label. */
  readonly models: readonly { readonly id: string; readonly label: string }[];
  readonly designs: readonly { readonly id: DesignId; readonly label: string }[];
  /** Every table that applies to the folder, keyed by its id: the records `rescore --json` emits. */
  readonly tables: TablesJson;
  /** Every logged run, failed ones included (the browser shows their error); only scored ones are in the tables. */
  readonly runs: readonly ReportRun[];
  readonly manifest: RunManifest | null;
  /** Set while the run writing the folder has runs left (see runInProgress); null for a finished or stopped run. */
  readonly progress: RunProgress | null;
}

/** The page's data, and the inputs its tables were computed from (the sections' charts draw on them). */
export interface ReportPage {
  readonly data: ReportData;
  readonly inputs: TableInputs;
}

/**
 * A folder as the page reads it: its whole log (failed runs included), its manifest (none for a log alone), where
 * its slugs came from, its progress.
 */
export type ReportFolder = Omit<TableFolder, "dir" | "manifest"> & {
  readonly manifest?: RunManifest | undefined;
  readonly slugsFrom: string;
  readonly progress?: RunProgress | undefined;
};

/** `recorded`: what the folder records beside its log (see tableInputs); none for a log alone. */
export function reportPage(title: string, folder: ReportFolder, recorded?: RecordedInputs): ReportPage {
  const inputs = inputsOf({ ...folder, manifest: folder.manifest }, recorded);
  const models = [...new Set(folder.records.map((r) => r.model))];
  const data: ReportData = {
    title,
    slugsFrom: folder.slugsFrom,
    models: models.map((id) => ({ id, label: inputs.label(id) })),
    designs: logDesigns(folder.records).map((id) => ({ id, label: DESIGN_LABELS[id] })),
    tables: tablesJson(inputs),
    runs: folder.records.map((r) => reportRun(r, folder.slugs)),
    manifest: folder.manifest ?? null,
    progress: folder.progress ?? null,
  };
  return { data, inputs };
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
