// The scale section's tables, for tables.md and the page: each design by model size, and the paired test per size.
import { formatP, formatProportion, scaleTable, type ModelSize, type ScaleTable } from "../scoring/index.ts";
import { DESIGN_LABELS } from "../designs/index.ts";
import type { AnswerRecord, RunManifest } from "../runs/index.ts";
import { formatInteger, leftOutNotes, type LeftOutRun, type TableGrid } from "./tables.ts";

export const SCALE_TITLE = "Scale: does the agent catch up as models grow?";

/** Each model the manifest records with a suite's or --models file's entry: its label and size. */
export function modelSizes(manifest: RunManifest | null | undefined): Map<string, ModelSize> {
  const sizes = new Map<string, ModelSize>();
  for (const m of manifest?.models ?? [])
    if (m.entry !== undefined) sizes.set(m.id, { label: m.entry.id, paramsB: m.entry.params_b });
  return sizes;
}

/** The run's scale table: undefined unless two or more of its models have a size (run --suite or --models). */
export function runScaleTable(
  records: readonly AnswerRecord[],
  slugs: readonly string[],
  manifest: RunManifest | null | undefined,
): ScaleTable | undefined {
  return scaleTable(records, slugs, modelSizes(manifest));
}

const billions = (b: number) => `${b}B`;

/** `failed`: the one-post runs left out of the table (see splitFailed), counted under each grid. */
export function scaleGrids(table: ScaleTable, failed: readonly LeftOutRun[] = []): TableGrid[] {
  const grids: TableGrid[] = [
    {
      caption: "Scale: cites right (strict) and tokens read per design, by model size",
      header: ["model", "parameters", "design", "cites right (strict)", "tokens read"],
      rows: table.points.map((p) => [
        p.label,
        billions(p.params_b),
        DESIGN_LABELS[p.design],
        formatProportion(p.cites_right),
        formatInteger(p.tokens_read),
      ]),
      notes: [
        "cites right: k/n (share, 95% Wilson interval), one-post questions; tokens read: per question, every " +
          "call's input tokens.",
      ],
    },
    {
      caption: "Scale: the workflow against the best agent design at each size",
      header: [
        "model",
        "parameters",
        "workflow",
        "best agent design",
        "its cites right",
        "workflow only",
        "agent only",
        "p",
      ],
      rows: table.tests.map((t) => [
        t.label,
        billions(t.params_b),
        formatProportion(t.workflow),
        DESIGN_LABELS[t.agent_design],
        formatProportion(t.agent),
        t.workflow_only,
        t.agent_only,
        formatP(t.p),
      ]),
      notes: [
        "best agent design: the agent design with the most strict right citations at that size; workflow only / " +
          "agent only: questions only one of the two cited right; p: exact McNemar test on those questions, as " +
          "compare computes it. Each size is tested once: with several sizes, one p below 0.05 can be chance.",
      ],
    },
  ];
  return grids.map((g) => ({ ...g, notes: [...(g.notes ?? []), ...leftOutNotes(failed)] }));
}

/**
 * scale.csv: one row per model and design, with the paired test of its size on the best agent design's row
 * (empty elsewhere), every figure unrounded.
 */
export function scaleCsvRows(table: ScaleTable): Record<string, string | number>[] {
  return table.points.map((p) => {
    const t = table.tests.find((x) => x.model === p.model && x.agent_design === p.design);
    return {
      model: p.model,
      label: p.label,
      params_b: p.params_b,
      design: p.design,
      n: p.cites_right.n,
      cites_right: p.cites_right.k,
      cites_right_low: p.cites_right.low,
      cites_right_high: p.cites_right.high,
      tokens_read: p.tokens_read,
      p_against_workflow: t === undefined ? "" : t.p,
    };
  });
}
