// The key-fact table: per model and design, how often the answer was right, crossed with its strict citation.
import type { AnswerRecord } from "../runs/index.ts";
import type { DesignId } from "../designs/index.ts";
import { answerRight as citesRightStrictly } from "./engineering.ts";
import { factVerdict } from "./key-facts.ts";
import { groupRuns, splitQuestionSets, type QuestionSet } from "./summary.ts";

/**
 * One row per question set, model and design. `n` counts every scored run; the rest only the runs whose question has
 * facts (`with_facts`), and are null when none has (a user's question file may leave facts out).
 */
export interface KeyFactRow {
  readonly set: QuestionSet;
  readonly model: string;
  readonly design: DesignId;
  readonly n: number;
  readonly with_facts: number;
  /** Facts stated over facts asked, summed over the runs. */
  readonly facts_stated: number | null;
  readonly facts_asked: number | null;
  /** Every fact stated. */
  readonly answer_right: number | null;
  /** The cross with the strict rescore (exactly the gold posts, for two-post questions). */
  readonly right_cited_right: number | null;
  /** Right, but the Source line names another post, several, or none: it knew, and misreported where from. */
  readonly right_cited_wrong: number | null;
  /** Cited right, but a fact missing: the source was named without its content being used. */
  readonly cited_right_wrong: number | null;
  /** Answers stating facts: all of them shown by the run's tools, or some never shown. */
  readonly from_evidence: number | null;
  readonly from_memory: number | null;
}

export function keyFactRows(records: readonly AnswerRecord[], slugs: readonly string[]): KeyFactRow[] {
  const sets = splitQuestionSets(records);
  const bySet: [QuestionSet, readonly AnswerRecord[]][] = [
    ["one-post", sets.onePost],
    ["two-post", sets.twoPost],
  ];
  return bySet.flatMap(([set, runs]) =>
    groupRuns(runs).map(({ model, design, runs: group }) => {
      const scored = group
        .map((r) => ({ verdict: factVerdict(r), cited: citesRightStrictly(r, r.answer, slugs) }))
        .filter((s) => s.verdict.facts !== null);
      const count = (keep: (s: (typeof scored)[number]) => boolean) =>
        scored.length === 0 ? null : scored.filter(keep).length;
      const total = (pick: (s: (typeof scored)[number]) => number) =>
        scored.length === 0 ? null : scored.reduce((a, s) => a + pick(s), 0);
      return {
        set,
        model,
        design,
        n: group.length,
        with_facts: scored.length,
        facts_stated: total((s) => s.verdict.stated ?? 0),
        facts_asked: total((s) => s.verdict.facts ?? 0),
        answer_right: count((s) => s.verdict.right === true),
        right_cited_right: count((s) => s.verdict.right === true && s.cited),
        right_cited_wrong: count((s) => s.verdict.right === true && !s.cited),
        cited_right_wrong: count((s) => s.verdict.right !== true && s.cited),
        from_evidence: count((s) => s.verdict.from === "evidence"),
        from_memory: count((s) => s.verdict.from === "memory"),
      };
    }),
  );
}
