// "What the engineering bought": per model, the forced agent, each engineered design and the workflow side by side
// (cites right with intervals, tokens read, paired p-values), then what each design's engineering did and cost.
import {
  BOUGHT_DESIGNS,
  compareRuns,
  engineeringRows,
  extendedDesign,
  formatP,
  formatProportion,
  splitQuestionSets,
  wilson,
} from "../scoring/index.ts";
import { answerRight, type Comparison, type EngineeringRow } from "../scoring/index.ts";
import { DESIGN_LABELS, isEngineered, type DesignId } from "../designs/index.ts";
import type { AnswerRecord } from "../runs/index.ts";
import type { ModelLabel } from "./model-labels.ts";
import { formatInteger, leftOutNotes, type TableGrid } from "./tables.ts";

export const ENGINEERING_TITLE = "What the engineering bought";

/**
 * The section's tables; none when the log holds no engineered design. `records` are the scored runs; `failed`, those
 * left out (see splitFailed), counted under each table.
 */
export function engineeringGrids(
  records: readonly AnswerRecord[],
  slugs: readonly string[],
  label: ModelLabel,
  failed: readonly AnswerRecord[] = [],
): TableGrid[] {
  if (!records.some((r) => isEngineered(r.design))) return [];
  const onePost = splitQuestionSets(records).onePost;
  const failedOnePost = splitQuestionSets(failed).onePost;
  const comparisons = compareRuns(onePost, slugs).filter((c) => c.measure === "cites_right");
  const models = [...new Set(onePost.map((r) => r.model))];
  const withLeftOut = (grid: TableGrid, left: readonly AnswerRecord[]): TableGrid => ({
    ...grid,
    notes: [...(grid.notes ?? []), ...leftOutNotes(left)],
  });
  return [
    ...models.map((model) =>
      withLeftOut(
        boughtGrid(model, label, onePost, slugs, comparisons),
        failedOnePost.filter((r) => r.model === model),
      ),
    ),
    withLeftOut(measuresGrid(engineeringRows(records, slugs), label), failed),
  ];
}

function boughtGrid(
  model: string,
  label: ModelLabel,
  records: readonly AnswerRecord[],
  slugs: readonly string[],
  comparisons: readonly Comparison[],
): TableGrid {
  const p = (a: DesignId, b: DesignId) => {
    const c = comparisons.find(
      (x) => x.a.model === model && x.a.design === a && x.b.design === b && x.across !== "models",
    );
    return c === undefined ? "-" : formatP(c.p);
  };
  const rows = BOUGHT_DESIGNS.flatMap((design) => {
    const runs = records.filter((r) => r.model === model && r.design === design);
    if (runs.length === 0) return [];
    const right = runs.filter((r) => answerRight(r, r.answer, slugs)).length;
    const base = extendedDesign(design);
    return [
      [
        DESIGN_LABELS[design],
        formatProportion(wilson(right, runs.length)),
        formatInteger(runs.reduce((a, r) => a + r.tokens_read, 0) / runs.length),
        base === undefined || base === "workflow" ? "-" : `${p(base, design)} (${DESIGN_LABELS[base]})`,
        design === "workflow" ? "-" : p("workflow", design),
      ],
    ];
  });
  return {
    caption: `${ENGINEERING_TITLE}: ${label(model)}`,
    header: [
      "design",
      "cites right (strict)",
      "tokens read",
      "p against the design it extends",
      "p against the workflow",
    ],
    rows,
    notes: [
      "cites right: k/n (share, 95% Wilson interval); tokens read: per question, every call's input tokens, " +
        "repairs included; p: exact McNemar test on the same questions (the citation-checked workflow extends " +
        "the workflow).",
    ],
  };
}

function measuresGrid(rows: readonly EngineeringRow[], label: ModelLabel): TableGrid {
  const dash = (x: number | string | null, f: (v: number) => string = String) =>
    x === null ? "-" : typeof x === "string" ? x || "none" : f(x);
  return {
    caption: "What the engineering did and cost, per design",
    header: [
      "model",
      "design",
      "n",
      "repairs",
      "answers changed",
      "to right",
      "to wrong",
      "tokens per repair",
      "calls refused",
      "refused, by kind",
      "tool block per call",
      "tool block share",
    ],
    rows: rows.map((r) => [
      label(r.model),
      DESIGN_LABELS[r.design],
      r.n,
      dash(r.repair_turns),
      dash(r.changed),
      dash(r.to_right),
      dash(r.to_wrong),
      dash(r.tokens_per_repair, formatInteger),
      dash(r.refused_calls),
      dash(r.refusals_by_kind),
      dash(r.tool_block_per_call, formatInteger),
      dash(r.tool_block_share, (v) => `${Math.round(v * 100)}%`),
    ]),
    notes: [
      "repairs: the citation check's one extra call, made when the answer's Source line did not name exactly " +
        "one post the run was shown; to right / to wrong: strict verdict of the first answer against the repaired " +
        "one. calls refused: calls the validation step answered with an error instead of running. tool block: " +
        "tokens of the tool schemas the chat template renders into every call with tools, and their share of all " +
        "tokens read.",
    ],
  };
}
