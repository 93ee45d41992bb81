// The study's two tables as text (markdown, as the study printed them) and as CSV, from scored rows.
import { stringify } from "csv-stringify/sync";
import type { StrictRow, StudyRow } from "../scoring/index.ts";
import { VARIANT_LABELS } from "../study/types.ts";

export interface TableContext {
  readonly sections: number;
  readonly questions: number;
}

/** "Qwen2.5-3B-Instruct" for hf:Qwen/Qwen2.5-3B-Instruct-GGUF/...; the file name for a local path. */
export function modelLabel(id: string): string {
  const hub = /^hf:[^/]+\/([^/:]+)/.exec(id)?.[1];
  if (hub) return hub.replace(/-GGUF$/i, "");
  return id.split(/[\\/]/).at(-1)!.replace(/\.gguf$/i, "");
}

const int = (x: number) => Math.round(x).toLocaleString("en-US");
const oneDecimal = (x: number) => x.toFixed(1);

/** One table per model, headed "N sections; N questions; <model>, greedy", as in the study. */
export function studyTablesMarkdown(rows: readonly StudyRow[], context: TableContext): string {
  const models = [...new Set(rows.map((r) => r.model))];
  return models
    .map((model) => {
      const header = `${int(context.sections)} sections; ${context.questions} questions; ${modelLabel(model)}, greedy`;
      const lines = rows
        .filter((r) => r.model === model)
        .map((r) =>
          cells([
            VARIANT_LABELS[r.variant],
            r.found,
            r.cites_any,
            r.cites_right,
            oneDecimal(r.model_calls),
            oneDecimal(r.tool_calls),
            int(r.last_context),
            int(r.tokens_read),
            r.no_tool,
            r.malformed,
          ]),
        );
      return [
        header,
        "",
        cells(["design", "found", "cites any", "cites right", "model calls", "tool calls", "last context", "tokens read", "no tool", "malformed"]),
        cells(Array(10).fill("---")),
        ...lines,
      ].join("\n");
    })
    .join("\n\n");
}

/** The strict rescore, with the grounded count (beyond the study) in the last column. */
export function strictTableMarkdown(rows: readonly StrictRow[]): string {
  return [
    "Strict rescore (source line: none / one real post / several / placeholder or invented)",
    "",
    cells(["model", "design", "found", "cites right", "none", "one real", "several", "invented", "cites right, grounded"]),
    cells(Array(9).fill("---")),
    ...rows.map((r) =>
      cells([
        modelLabel(r.model),
        VARIANT_LABELS[r.variant],
        r.found,
        r.cites_right,
        r.source_none,
        r.source_one_real,
        r.source_several,
        r.source_invented,
        r.cites_right_grounded,
      ]),
    ),
  ].join("\n");
}

export function rowsCsv(rows: readonly object[]): string {
  return stringify(rows as Record<string, unknown>[], { header: true });
}

function cells(values: readonly (string | number)[]): string {
  return `| ${values.join(" | ")} |`;
}
