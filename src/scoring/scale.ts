// Does the agent catch up as models grow? Per model size: each design's cites right (strict) and tokens read, and
// the paired test of the workflow against the best agent design of that size. One-post questions only.
import { DESIGN_IDS, isAgentDesign, type DesignId } from "../designs/index.ts";
import type { AnswerRecord } from "../runs/index.ts";
import { compareRuns } from "./comparisons.ts";
import { wilson, type Proportion } from "./statistics.ts";
import { splitQuestionSets, strictRows, studyRows } from "./summary.ts";

/** A model's place on the chart: its label and its size in billions of parameters. */
export interface ModelSize {
  readonly label: string;
  readonly paramsB: number;
}

/** One design of one model: a point of the chart and a row of the table. */
export interface ScalePoint {
  readonly model: string;
  readonly label: string;
  readonly params_b: number;
  readonly design: DesignId;
  /** Cites right (strict), k of n, with its 95% Wilson interval. */
  readonly cites_right: Proportion;
  /** Tokens read per question: every call's input tokens, summed over the run, averaged. */
  readonly tokens_read: number;
}

/** The workflow against the agent design that cited right most often at one size, on the same questions. */
export interface ScaleTest {
  readonly model: string;
  readonly label: string;
  readonly params_b: number;
  readonly workflow: Proportion;
  readonly agent_design: DesignId;
  readonly agent: Proportion;
  /** Questions only the workflow cited right, and only the agent. */
  readonly workflow_only: number;
  readonly agent_only: number;
  /** Exact McNemar p-value on those discordant questions. */
  readonly p: number;
}

export interface ScaleTable {
  /** Ordered by size, then by design in DESIGN_IDS order. */
  readonly points: readonly ScalePoint[];
  /** One per size whose log holds the workflow and an agent design. */
  readonly tests: readonly ScaleTest[];
}

/**
 * The scale table of the models `sizes` knows (the others are left out); undefined with fewer than two sized models,
 * where there is no scale to speak of. The best agent design is the one with the most strict right citations (on a
 * tie, the first in DESIGN_IDS order: agent, agent-search-first, agent-forced, then the engineered ones).
 */
export function scaleTable(
  records: readonly AnswerRecord[],
  slugs: readonly string[],
  sizes: ReadonlyMap<string, ModelSize>,
): ScaleTable | undefined {
  const onePost = splitQuestionSets(records).onePost.filter((r) => sizes.has(r.model));
  const models = [...new Set(onePost.map((r) => r.model))].sort(
    (a, b) => sizes.get(a)!.paramsB - sizes.get(b)!.paramsB,
  );
  if (models.length < 2) return undefined;
  const strict = strictRows(onePost, slugs);
  const study = studyRows(onePost);
  const place = (model: string) => ({ model, label: sizes.get(model)!.label, params_b: sizes.get(model)!.paramsB });
  const points = models.flatMap((model) =>
    DESIGN_IDS.flatMap((design) => {
      const s = strict.find((r) => r.model === model && r.design === design);
      const t = study.find((r) => r.model === model && r.design === design);
      if (s === undefined || t === undefined) return [];
      return [{ ...place(model), design, cites_right: wilson(s.cites_right, s.n), tokens_read: t.tokens_read }];
    }),
  );
  const comparisons = compareRuns(onePost, slugs).filter(
    (c) => c.across === "designs" && c.measure === "cites_right" && isAgentDesign(c.b.design),
  );
  const tests = models.flatMap((model): ScaleTest[] => {
    const candidates = comparisons.filter((c) => c.a.model === model);
    // The best by its own rate over all its runs (the table's figure), not over the questions paired with the workflow.
    const rate = (d: DesignId) => points.find((p) => p.model === model && p.design === d)!.cites_right;
    const best = candidates.reduce<(typeof candidates)[number] | undefined>(
      (top, c) => (top === undefined || share(rate(c.b.design)) > share(rate(top.b.design)) ? c : top),
      undefined,
    );
    if (best === undefined) return [];
    return [
      {
        ...place(model),
        workflow: proportion(best.a),
        agent_design: best.b.design,
        agent: proportion(best.b),
        workflow_only: best.a_only.length,
        agent_only: best.b_only.length,
        p: best.p,
      },
    ];
  });
  return { points, tests };
}

const share = (x: Proportion) => (x.n === 0 ? 0 : x.k / x.n);
const proportion = ({ k, n, low, high }: Proportion): Proportion => ({ k, n, low, high });
