// The report's section for a log with repeated samples or several wordings: the computed sentence, the chart of
// each (wording, sample) condition, then each table.
import { conditionsChartHtml } from "./conditions-chart.ts";
import { escapeHtml } from "./html-escape.ts";
import { htmlTable } from "./html-tables.ts";
import type { ModelLabel } from "./model-labels.ts";
import type { RepeatTables } from "./repeat-tables.ts";

/** What the page needs of the repeat tables (the rows themselves are in tables.md and the CSVs). */
export type RepeatSection = Pick<RepeatTables, "grids" | "sentences" | "conditions" | "designRates">;

export function repeatSectionHtml(section: RepeatSection, label: ModelLabel): string {
  const sentences = section.sentences.map((s) => `<p class="note"><strong>${escapeHtml(s)}</strong></p>`).join("\n");
  const tables = section.grids
    .map((g) => {
      const notes = (g.notes ?? []).map((n) => `<p class="caption">${escapeHtml(n)}</p>`).join("\n");
      return `${htmlTable(g.caption, g.header, g.rows, 3)}\n${notes}`;
    })
    .join("\n");
  return `\n<h2>Samples and wordings</h2>\n${sentences}\n${conditionsChartHtml(section, label)}${tables}\n`;
}
