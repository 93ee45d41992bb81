// What each design's engineering did and cost, from logged runs: repairs, refusals, and the tool block's share.
import { ENGINEERED_DESIGNS, EXTENDS, type DesignId, type ValidationKind, VALIDATION_KINDS } from "../designs/index.ts";
import { isTwoPostAnswer, type AnswerRecord } from "../runs/index.ts";
import { citesRightStrict, classifySource } from "./strict.ts";
import { groupRuns } from "./summary.ts";
import { citesRightExact, classifyTwoPostSource } from "./two-post.ts";

/** One model and design. Repair columns are null on designs without a repair step; token columns when unknown. */
export interface EngineeringRow {
  readonly model: string;
  readonly design: DesignId;
  readonly n: number;
  /** Repair calls made (cite-checked designs). */
  readonly repair_turns: number | null;
  /** Repairs whose answer differs from the first answer. */
  readonly changed: number | null;
  /** Repairs that turned a wrong answer right, and a right one wrong (strict; two-post: exactly the gold posts). */
  readonly to_right: number | null;
  readonly to_wrong: number | null;
  /** Tokens the repair calls read, per repair: what one repair costs. */
  readonly tokens_per_repair: number | null;
  /** Calls the validation step refused (agent-validated), and how many of each kind ("no-such-heading 3, ..."). */
  readonly refused_calls: number | null;
  readonly refusals_by_kind: string | null;
  /** The rendered tool block's tokens per call made with tools, and its share of all tokens the design read. */
  readonly tool_block_per_call: number | null;
  readonly tool_block_share: number | null;
}

/** A logged answer's strict verdict (exactly the gold posts, on a two-post question). */
export function answerRight(r: AnswerRecord, answer: string, slugs: readonly string[]): boolean {
  if (isTwoPostAnswer(r)) return citesRightExact(classifyTwoPostSource(answer, r.gold_posts, slugs));
  return citesRightStrict(classifySource(answer, slugs), r.gold_post);
}

export function engineeringRows(records: readonly AnswerRecord[], slugs: readonly string[]): EngineeringRow[] {
  return groupRuns(records).map(({ model, design, runs }) => {
    const repairing = runs.some((r) => r.repair_turns !== undefined);
    const repaired = runs.filter((r) => r.first_answer !== undefined);
    const validating = runs.some((r) => r.validation_errors !== undefined);
    const kinds = new Map<string, number>();
    for (const r of runs)
      for (const [kind, n] of Object.entries(r.validation_errors ?? {}))
        kinds.set(kind, (kinds.get(kind) ?? 0) + (n ?? 0));
    const withTools = runs.reduce((a, r) => a + r.transcript.calls.filter((c) => c.withTools).length, 0);
    const blocksKnown =
      withTools > 0 &&
      runs.every((r) => r.tool_block_tokens !== undefined || r.transcript.calls.every((c) => !c.withTools));
    const blockTokens = sum(runs.map((r) => r.tool_block_tokens ?? 0));
    return {
      model,
      design,
      n: runs.length,
      repair_turns: repairing ? sum(runs.map((r) => r.repair_turns ?? 0)) : null,
      changed: repairing ? repaired.filter((r) => r.first_answer !== r.answer).length : null,
      to_right: repairing
        ? repaired.filter((r) => !answerRight(r, r.first_answer!, slugs) && answerRight(r, r.answer, slugs)).length
        : null,
      to_wrong: repairing
        ? repaired.filter((r) => answerRight(r, r.first_answer!, slugs) && !answerRight(r, r.answer, slugs)).length
        : null,
      tokens_per_repair:
        repaired.length > 0 ? sum(repaired.map((r) => r.repair_tokens_read ?? 0)) / repaired.length : null,
      refused_calls: validating ? sum([...kinds.values()]) : null,
      refusals_by_kind: validating
        ? [...kinds]
            .sort(byKind)
            .map(([k, n]) => `${k} ${n}`)
            .join(", ")
        : null,
      tool_block_per_call: blocksKnown ? blockTokens / withTools : null,
      tool_block_share: blocksKnown ? blockTokens / sum(runs.map((r) => r.tokens_read)) : null,
    };
  });
}

/** "What the engineering bought" sets side by side: the forced agent, each engineered design, the workflow. */
export const BOUGHT_DESIGNS: readonly DesignId[] = ["agent-forced", ...ENGINEERED_DESIGNS, "workflow"];

/** The study design an engineered design extends, for the paired test against it. */
export function extendedDesign(design: DesignId): DesignId | undefined {
  return Object.hasOwn(EXTENDS, design) ? EXTENDS[design as keyof typeof EXTENDS] : undefined;
}

function byKind(a: [string, number], b: [string, number]): number {
  return VALIDATION_KINDS.indexOf(a[0] as ValidationKind) - VALIDATION_KINDS.indexOf(b[0] as ValidationKind);
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
