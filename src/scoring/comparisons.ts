// Which differences are real: each agent design against the workflow, and each design across models, paired by question.
import type { AnswerRecord } from "../runs/index.ts";
import type { DesignId } from "../designs/index.ts";
import { goldPostsOf, isTwoPostAnswer } from "../runs/index.ts";
import { isEngineered, DESIGN_IDS, EXTENDS } from "../designs/index.ts";
import { citesRightStrict, classifySource } from "./strict.ts";
import { pairedComparison, type PairedComparison, type Proportion } from "./statistics.ts";
import { splitQuestionSets, type QuestionSet } from "./summary.ts";
import { citesRightExact, classifyTwoPostSource, foundAll } from "./two-post.ts";
import { firstCondition, type Condition } from "./conditions.ts";

/**
 * The two yes/no measures compared: a search returned the right post; the answer cites it (strict). On two-post
 * questions: found all (searches and reads showed every gold post); cites exactly the gold posts.
 */
export type Measure = "found" | "cites_right";
export const MEASURES: readonly Measure[] = ["found", "cites_right"];

/** One side of a comparison: a model and a design, with its proportion over the paired questions. */
export interface Arm extends Proportion {
  readonly model: string;
  readonly design: DesignId;
}

export interface Comparison extends Omit<PairedComparison, "a" | "b"> {
  /** The questions compared: a log mixing both shapes is compared within each set, never across. */
  readonly set: QuestionSet;
  /**
   * "designs": same model, a = the workflow, b = another design. "extends": same model, a = a study design, b = an
   * engineered design that extends it (those extending the workflow are already under "designs"). "models": same
   * design, a and b are two models.
   */
  readonly across: "designs" | "extends" | "models";
  readonly measure: Measure;
  readonly a: Arm;
  readonly b: Arm;
  /** For a log of several (wording, sample) conditions: the one whose runs were paired, and how many there are. */
  readonly condition?: Condition & { readonly of: number };
}

/**
 * Every comparison the report shows, in a fixed order: the one-post questions, then the two-post questions; within
 * each, for each model, each design against the workflow (found, then cites right), then each engineered design
 * against the agent design it extends; then for each pair of models (in first-seen order), each design they share.
 */
export function compareRuns(records: readonly AnswerRecord[], slugs: readonly string[]): Comparison[] {
  const { onePost, twoPost } = splitQuestionSets(records);
  return [...compareSet("one-post", onePost, slugs), ...compareSet("two-post", twoPost, slugs)];
}

function compareSet(set: QuestionSet, all: readonly AnswerRecord[], slugs: readonly string[]): Comparison[] {
  // One run per question on each side: with several samples or wordings, the first condition's.
  const { runs: records, condition } = firstCondition(all);
  const outcomes = outcomeTable(records, slugs);
  const models = [...new Set(records.map((r) => r.model))];
  const has = (model: string, design: DesignId) => outcomes.has(armKey(model, design, "found"));
  const compare = (
    across: Comparison["across"],
    measure: Measure,
    a: [string, DesignId],
    b: [string, DesignId],
  ): Comparison => {
    const paired = pairedComparison(outcomes.get(armKey(...a, measure))!, outcomes.get(armKey(...b, measure))!);
    const result = { ...paired, ...questionIds(paired) };
    return {
      set,
      across,
      measure,
      ...result,
      a: { model: a[0], design: a[1], ...result.a },
      b: { model: b[0], design: b[1], ...result.b },
      ...(condition !== undefined ? { condition } : {}),
    };
  };

  const out: Comparison[] = [];
  for (const model of models) {
    if (!has(model, "workflow")) continue;
    for (const design of DESIGN_IDS.filter((v) => v !== "workflow" && has(model, v))) {
      for (const measure of MEASURES) out.push(compare("designs", measure, [model, "workflow"], [model, design]));
    }
  }
  for (const model of models) {
    for (const design of DESIGN_IDS.filter((v) => isEngineered(v) && EXTENDS[v] !== "workflow" && has(model, v))) {
      const base = EXTENDS[design as keyof typeof EXTENDS];
      if (!has(model, base)) continue;
      for (const measure of MEASURES) out.push(compare("extends", measure, [model, base], [model, design]));
    }
  }
  for (const [i, first] of models.entries()) {
    for (const second of models.slice(i + 1)) {
      for (const design of DESIGN_IDS.filter((v) => has(first, v) && has(second, v))) {
        for (const measure of MEASURES) out.push(compare("models", measure, [first, design], [second, design]));
      }
    }
  }
  return out;
}

/**
 * Which runs answer the same question: its id, its text and its gold posts. An id alone pairs q01 of one questions
 * file with q01 of another, about another post.
 */
export function questionKey(r: AnswerRecord): string {
  return JSON.stringify([r.question_id, r.question, goldPostsOf(r)]);
}

/** The question lists of a comparison keyed by questionKey, given back as the ids a reader knows. */
function questionIds(c: PairedComparison): Pick<PairedComparison, "a_only" | "b_only" | "unpaired"> {
  const id = (key: string) => (JSON.parse(key) as [string])[0];
  return { a_only: c.a_only.map(id), b_only: c.b_only.map(id), unpaired: c.unpaired.map(id) };
}

/** Per-question outcomes (by questionKey) of one model, design and measure. Keys: armKey(model, design, measure). */
function outcomeTable(records: readonly AnswerRecord[], slugs: readonly string[]): Map<string, Map<string, boolean>> {
  const table = new Map<string, Map<string, boolean>>();
  const put = (key: string, id: string, value: boolean) => {
    const arm = table.get(key) ?? new Map<string, boolean>();
    table.set(key, arm);
    arm.set(id, value);
  };
  for (const r of records) {
    if (isTwoPostAnswer(r)) {
      put(armKey(r.model, r.design, "found"), questionKey(r), foundAll(r));
      put(
        armKey(r.model, r.design, "cites_right"),
        questionKey(r),
        citesRightExact(classifyTwoPostSource(r.answer, r.gold_posts, slugs)),
      );
    } else {
      put(armKey(r.model, r.design, "found"), questionKey(r), r.found);
      put(
        armKey(r.model, r.design, "cites_right"),
        questionKey(r),
        citesRightStrict(classifySource(r.answer, slugs), r.gold_post),
      );
    }
  }
  return table;
}

function armKey(model: string, design: DesignId, measure: Measure): string {
  return JSON.stringify([model, design, measure]);
}

/** "p = 0.021" style, with tiny values in exponent form so that they do not read as zero. */
export function formatP(p: number): string {
  if (p >= 0.001) return p.toFixed(3);
  return p.toExponential(1);
}

/** "23/30 (77%, 59-88%)": the proportion with its 95% interval. */
export function formatProportion(x: Proportion): string {
  if (x.n === 0) return "0/0";
  const pct = (v: number) => `${Math.round(v * 100)}`;
  return `${x.k}/${x.n} (${pct(x.k / x.n)}%, ${pct(x.low)}-${pct(x.high)}%)`;
}
