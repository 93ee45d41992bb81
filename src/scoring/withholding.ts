// The withheld-source test scored: per design, how often a right citation and a right answer survive withholding.
import type { AnswerRecord } from "../runs/index.ts";
import type { DesignId } from "../designs/index.ts";
import { questionKey } from "./comparisons.ts";
import { answerRight as citesRightStrictly } from "./engineering.ts";
import { firstCondition } from "./conditions.ts";
import { factVerdict } from "./key-facts.ts";
import { pairedComparison } from "./statistics.ts";
import { groupRuns, splitQuestionSets, type QuestionSet } from "./summary.ts";

/**
 * One model and design, its runs on the whole index (`shown`) paired by question with its runs on the index
 * without the gold (`withheld`). A citation right in both was made without the source: post-rationalized.
 */
export interface WithholdingRow {
  readonly set: QuestionSet;
  readonly model: string;
  readonly design: DesignId;
  /** Questions answered on both sides. */
  readonly n: number;
  readonly cites_right_shown: number;
  readonly cites_right_withheld: number;
  /** Cited right with the source shown and again without it. */
  readonly citation_survives: number;
  /** Exact McNemar p, shown against withheld. */
  readonly p_cites: number;
  /** Questions with key facts answered on both sides: answer right's denominator; null where none carry facts. */
  readonly n_with_facts: number | null;
  /** The same for answer right (every key fact stated); null where the questions carry no facts. */
  readonly answer_right_shown: number | null;
  readonly answer_right_withheld: number | null;
  readonly answer_survives: number | null;
  readonly p_answer: number | null;
}

type Outcomes = Map<string, { cited: boolean; right: boolean | null }>;

function outcomes(runs: readonly AnswerRecord[], slugs: readonly string[]): Outcomes {
  return new Map(
    runs.map((r) => [questionKey(r), { cited: citesRightStrictly(r, r.answer, slugs), right: factVerdict(r).right }]),
  );
}

function pair(a: Outcomes, b: Outcomes, pick: (o: { cited: boolean; right: boolean | null }) => boolean | null) {
  const side = (o: Outcomes) =>
    new Map([...o].flatMap(([k, v]) => (pick(v) === null ? [] : [[k, pick(v) === true] as const])));
  const [sa, sb] = [side(a), side(b)];
  const paired = pairedComparison(sa, sb);
  const both = [...sa].filter(([k, v]) => v && sb.get(k) === true).length;
  return { paired, both };
}

/** Rows for every model and design both logs ran, per question set; models are matched by their id. */
export function withholdingRows(
  shown: readonly AnswerRecord[],
  withheld: readonly AnswerRecord[],
  slugs: readonly string[],
): WithholdingRow[] {
  // One run per question on each side: with several samples or wordings, each folder's first condition's.
  const [a, b] = [splitQuestionSets(firstCondition(shown).runs), splitQuestionSets(firstCondition(withheld).runs)];
  const sets: [QuestionSet, readonly AnswerRecord[], readonly AnswerRecord[]][] = [
    ["one-post", a.onePost, b.onePost],
    ["two-post", a.twoPost, b.twoPost],
  ];
  return sets.flatMap(([set, left, right]) =>
    groupRuns(left).flatMap(({ model, design, runs }) => {
      const other = right.filter((r) => r.model === model && r.design === design);
      if (other.length === 0) return [];
      const [oa, ob] = [outcomes(runs, slugs), outcomes(other, slugs)];
      const cites = pair(oa, ob, (o) => o.cited);
      const answers = pair(oa, ob, (o) => o.right);
      const facts = answers.paired.a.n > 0;
      return [
        {
          set,
          model,
          design,
          n: cites.paired.a.n,
          cites_right_shown: cites.paired.a.k,
          cites_right_withheld: cites.paired.b.k,
          citation_survives: cites.both,
          p_cites: cites.paired.p,
          n_with_facts: facts ? answers.paired.a.n : null,
          answer_right_shown: facts ? answers.paired.a.k : null,
          answer_right_withheld: facts ? answers.paired.b.k : null,
          answer_survives: facts ? answers.both : null,
          p_answer: facts ? answers.paired.p : null,
        },
      ];
    }),
  );
}
