// A log's (wording, sample) conditions: each is one pass of a design over the questions. A test that pairs runs by
// question (McNemar) must take one run per question, so it reads one condition, never whichever run came last.
import type { AnswerRecord } from "../runs/index.ts";
import { DEFAULT_WORDING_ID } from "../designs/index.ts";

export interface Condition {
  readonly wording: string;
  readonly sample: number;
}

/** A run's condition: a log written before wordings and samples reads as the default wording, sample 0. */
export function conditionOf(r: Pick<AnswerRecord, "wording" | "sample">): Condition {
  return { wording: r.wording ?? DEFAULT_WORDING_ID, sample: r.sample ?? 0 };
}

/** The log's conditions, wordings in first-seen order, each wording's samples in ascending order. */
export function conditionsOf(records: readonly Pick<AnswerRecord, "wording" | "sample">[]): Condition[] {
  const samples = new Map<string, Set<number>>();
  for (const r of records) {
    const { wording, sample } = conditionOf(r);
    samples.set(wording, (samples.get(wording) ?? new Set()).add(sample));
  }
  return [...samples].flatMap(([wording, set]) =>
    [...set].sort((a, b) => a - b).map((sample) => ({ wording, sample })),
  );
}

/**
 * The runs of the log's first condition, and which it is with how many the log holds (undefined for a log of one
 * condition, whose runs are all kept).
 */
export function firstCondition<R extends Pick<AnswerRecord, "wording" | "sample">>(
  records: readonly R[],
): { readonly runs: readonly R[]; readonly condition?: Condition & { readonly of: number } } {
  const conditions = conditionsOf(records);
  if (conditions.length <= 1) return { runs: records };
  const first = conditions[0]!;
  return {
    runs: records.filter((r) => {
      const c = conditionOf(r);
      return c.wording === first.wording && c.sample === first.sample;
    }),
    condition: { ...first, of: conditions.length },
  };
}

/** How many conditions a log holds, and whether any run was sampled (a sampled run logs its seed). */
export function conditionSummary(records: readonly Pick<AnswerRecord, "wording" | "sample" | "seed">[]): {
  readonly count: number;
  readonly sampled: boolean;
} {
  return { count: conditionsOf(records).length, sampled: records.some((r) => r.seed !== undefined) };
}
