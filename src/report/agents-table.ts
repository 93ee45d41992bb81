// "What the agents did" as a table grid (for tables.md and the page) and as agents.csv's flat rows.
import type { AgentActionsRow } from "../scoring/index.ts";
import { DESIGN_LABELS, isAgentDesign } from "../designs/index.ts";
import type { ModelLabel } from "./model-labels.ts";
import { leftOutNotes, type LeftOutRun, type TableGrid } from "./tables.ts";

export const AGENTS_TITLE = "What the agents did";

/** A left-out run, with the design that says whether it would have had a row here. */
type LeftOutAgentRun = LeftOutRun & { readonly design: AgentActionsRow["design"] };

/** One row per agent (model, design); `failed` are the one-post runs left out, counted if they were an agent's. */
export function agentsGrid(
  rows: readonly AgentActionsRow[],
  label: ModelLabel,
  failed: readonly LeftOutAgentRun[] = [],
): TableGrid {
  return {
    caption: `${AGENTS_TITLE} (runs, counted from each run's transcript)`,
    header: [
      "model",
      "design",
      "n",
      "hit the turn limit",
      "searched",
      "searched again",
      "read a section",
      "model calls (calls: runs)",
      "no source line",
      "one real",
      "several",
      "invented",
    ],
    rows: rows.map((r) => [
      label(r.model),
      DESIGN_LABELS[r.design],
      r.n,
      r.hit_turn_limit,
      r.searched,
      r.searched_again,
      r.read_section,
      r.calls_per_run.map(([calls, runs]) => `${calls}: ${runs}`).join(", "),
      r.source_none,
      r.source_one_real,
      r.source_several,
      r.source_invented,
    ]),
    notes: leftOutNotes(failed.filter((r) => isAgentDesign(r.design))),
  };
}

/**
 * agents.csv: the distribution spread into one column per call count any row made (calls_1, calls_2, ...), so
 * that every line has the same columns.
 */
export function agentsCsvRows(rows: readonly AgentActionsRow[]): Record<string, string | number>[] {
  const counts = [...new Set(rows.flatMap((r) => r.calls_per_run.map(([calls]) => calls)))].sort((a, b) => a - b);
  return rows.map(({ calls_per_run, source_none, source_one_real, source_several, source_invented, ...r }) => ({
    ...r,
    ...Object.fromEntries(
      counts.map((calls) => [`calls_${calls}`, calls_per_run.find(([c]) => c === calls)?.[1] ?? 0]),
    ),
    source_none,
    source_one_real,
    source_several,
    source_invented,
  }));
}
