// Table rows from logged answers: the study's first (lenient) table and its strict rescore, one row per model and design.
import type { AnswerRecord, OnePostAnswer, TwoPostAnswer } from "../runs/index.ts";
import type { DesignId } from "../designs/index.ts";
import { isTwoPostAnswer } from "../runs/index.ts";
import { DESIGN_IDS } from "../designs/index.ts";
import { citesAny, citesRightLenient } from "./lenient.ts";
import { citationGrounded, citesRightStrict, classifySource, slugOnlyInsideWord } from "./strict.ts";
import { citesRightExact, classifyTwoPostSource, foundAll, foundAny, type TwoPostClass } from "./two-post.ts";

/** The study's first table. Averages are per question; counts are questions (or tool calls, for malformed). */
export interface StudyRow {
  readonly model: string;
  readonly design: DesignId;
  readonly n: number;
  readonly found: number;
  readonly cites_any: number;
  readonly cites_right: number;
  readonly model_calls: number;
  readonly tool_calls: number;
  readonly last_context: number;
  readonly tokens_read: number;
  /** Agent runs that never called a tool (0 for the workflow, whose search is not the model's choice). */
  readonly no_tool: number;
  readonly malformed: number;
  /** Beyond the study: average tokens evaluated after cache reuse (null when unknown), generated, seconds; runs that failed. */
  readonly tokens_evaluated: number | null;
  readonly tokens_generated: number;
  readonly seconds: number;
  readonly errors: number;
}

/** The strict rescore, with the grounded measures beside it. */
export interface StrictRow {
  readonly model: string;
  readonly design: DesignId;
  readonly n: number;
  readonly found: number;
  readonly cites_right: number;
  readonly source_none: number;
  readonly source_one_real: number;
  readonly source_several: number;
  readonly source_invented: number;
  /** Strict right citations of a post the run's own tools had shown the model. */
  readonly cites_right_grounded: number;
  /** One-real citations (right or wrong) of a post the tools had shown. */
  readonly citations_grounded: number;
  /** <tool_call> tags the study's pattern passed over, summed over the runs; null when a run's log lacks the count. */
  readonly ignored_call_blocks: number | null;
  /** Beyond the study: source lines that name a slug only inside a longer word, which the substring rule counts. */
  readonly slug_inside_word: number;
}

/** A two-post question's table: the study's cost columns, with found and the source classes measured against G. */
export interface TwoPostRow {
  readonly model: string;
  readonly design: DesignId;
  readonly n: number;
  /** The run's searches and reads showed every post of G; found_any: at least one. */
  readonly found_all: number;
  readonly found_any: number;
  readonly cites_any: number;
  /** The source line names exactly G (order and separators free). */
  readonly cites_right: number;
  readonly source_exact: number;
  readonly source_subset: number;
  readonly source_superset: number;
  readonly source_mixed: number;
  readonly source_none_of_gold: number;
  readonly source_none: number;
  readonly model_calls: number;
  readonly tool_calls: number;
  readonly last_context: number;
  readonly tokens_read: number;
  readonly no_tool: number;
  readonly malformed: number;
  readonly errors: number;
}

/** The question sets a log can hold: the study's shape, and questions that need two posts. Each gets its own tables. */
export type QuestionSet = "one-post" | "two-post";

/** A log's records split by question shape; a log of the study's questions has only `onePost`. */
export function splitQuestionSets(records: readonly AnswerRecord[]): {
  onePost: OnePostAnswer[];
  twoPost: TwoPostAnswer[];
} {
  const onePost: OnePostAnswer[] = [];
  const twoPost: TwoPostAnswer[] = [];
  for (const r of records) {
    if (isTwoPostAnswer(r)) twoPost.push(r);
    else onePost.push(r);
  }
  return { onePost, twoPost };
}

/** Groups records by model (in first-seen order) and design (in the study's order). */
export function groupRuns<R extends AnswerRecord>(
  records: readonly R[],
): { model: string; design: DesignId; runs: R[] }[] {
  const models = [...new Set(records.map((r) => r.model))];
  return models.flatMap((model) =>
    DESIGN_IDS.map((design) => ({
      model,
      design,
      runs: records.filter((r) => r.model === model && r.design === design),
    })).filter((g) => g.runs.length > 0),
  );
}

/**
 * The study's first table over the one-post questions of a log (two-post questions have their own table). `all` are
 * the scored runs (see splitFailed); `failed`, the runs left out, only fill the errors column.
 */
export function studyRows(all: readonly AnswerRecord[], failed: readonly AnswerRecord[] = []): StudyRow[] {
  const records = splitQuestionSets(all).onePost;
  const failedHere = splitQuestionSets(failed).onePost;
  return groupRuns(records).map(({ model, design, runs }) => {
    const evaluated = runs.map((r) => r.tokens_evaluated);
    return {
      model,
      design,
      n: runs.length,
      found: count(runs, (r) => r.found),
      cites_any: count(runs, (r) => citesAny(r.answer)),
      cites_right: count(runs, (r) => citesRightLenient(r.answer, r.gold_post)),
      model_calls: mean(runs.map((r) => r.model_calls)),
      tool_calls: mean(runs.map((r) => r.tool_calls)),
      last_context: mean(runs.map((r) => r.last_context)),
      tokens_read: mean(runs.map((r) => r.tokens_read)),
      no_tool: design === "workflow" ? 0 : count(runs, (r) => r.tool_calls === 0),
      malformed: runs.reduce((a, r) => a + r.malformed, 0),
      tokens_evaluated: evaluated.every((e) => e !== null) ? mean(evaluated as number[]) : null,
      tokens_generated: mean(runs.map((r) => r.tokens_generated)),
      seconds: mean(runs.map((r) => r.seconds)),
      errors: failedOf(failedHere, model, design),
    };
  });
}

/** The strict rescore over the one-post questions of a log. */
export function strictRows(all: readonly AnswerRecord[], slugs: readonly string[]): StrictRow[] {
  const records = splitQuestionSets(all).onePost;
  return groupRuns(records).map(({ model, design, runs }) => {
    const verdicts = runs.map((r) => ({ run: r, verdict: classifySource(r.answer, slugs) }));
    const kind = (k: string) => count(verdicts, (v) => v.verdict.kind === k);
    return {
      model,
      design,
      n: runs.length,
      found: count(runs, (r) => r.found),
      cites_right: count(verdicts, (v) => citesRightStrict(v.verdict, v.run.gold_post)),
      source_none: kind("none"),
      source_one_real: kind("one-real"),
      source_several: kind("several"),
      source_invented: kind("invented"),
      cites_right_grounded: count(
        verdicts,
        (v) => citesRightStrict(v.verdict, v.run.gold_post) && v.run.seen_posts.includes(v.run.gold_post),
      ),
      citations_grounded: count(verdicts, (v) => citationGrounded(v.verdict, v.run.seen_posts)),
      ignored_call_blocks: runs.every((r) => r.ignored_call_blocks !== undefined)
        ? runs.reduce((a, r) => a + (r.ignored_call_blocks ?? 0), 0)
        : null,
      slug_inside_word: count(verdicts, (v) => slugOnlyInsideWord(v.verdict)),
    };
  });
}

/** The two-post table over the two-post questions of a log (scored runs; `failed` fill the errors column). */
export function twoPostRows(
  all: readonly AnswerRecord[],
  slugs: readonly string[],
  failed: readonly AnswerRecord[] = [],
): TwoPostRow[] {
  const records = splitQuestionSets(all).twoPost;
  const failedHere = splitQuestionSets(failed).twoPost;
  return groupRuns(records).map(({ model, design, runs }) => {
    const verdicts = runs.map((r) => classifyTwoPostSource(r.answer, r.gold_posts, slugs));
    const kind = (k: TwoPostClass) => count(verdicts, (v) => v.kind === k);
    return {
      model,
      design,
      n: runs.length,
      found_all: count(runs, foundAll),
      found_any: count(runs, foundAny),
      cites_any: count(runs, (r) => citesAny(r.answer)),
      cites_right: count(verdicts, citesRightExact),
      source_exact: kind("exact"),
      source_subset: kind("subset"),
      source_superset: kind("superset"),
      source_mixed: kind("mixed"),
      source_none_of_gold: kind("none-of-gold"),
      source_none: kind("no-source"),
      model_calls: mean(runs.map((r) => r.model_calls)),
      tool_calls: mean(runs.map((r) => r.tool_calls)),
      last_context: mean(runs.map((r) => r.last_context)),
      tokens_read: mean(runs.map((r) => r.tokens_read)),
      no_tool: design === "workflow" ? 0 : count(runs, (r) => r.tool_calls === 0),
      malformed: runs.reduce((a, r) => a + r.malformed, 0),
      errors: failedOf(failedHere, model, design),
    };
  });
}

function failedOf(failed: readonly AnswerRecord[], model: string, design: DesignId): number {
  return count(failed, (r) => r.model === model && r.design === design);
}

function count<T>(xs: readonly T[], predicate: (x: T) => boolean): number {
  return xs.filter(predicate).length;
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}
