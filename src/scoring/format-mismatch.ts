// Beyond the study: replies that look like a tool call written in another format than the one the run parsed. A
// Llama reply holding <tool_call>, or a Qwen reply that is a bare {"name": ...}, was read as an answer: when such
// replies are many, the parser, not the model, is deciding the row.
import { dialectOf, looksForeign, type RunFormat } from "../toolcalls/index.ts";
import { isEngineered, type DesignId } from "../designs/index.ts";
import type { AnswerRecord } from "../runs/index.ts";
import { groupRuns } from "./summary.ts";

export interface FormatMismatchRow {
  readonly model: string;
  readonly design: DesignId;
  readonly tool_format: RunFormat;
  /** Model calls (replies) of the row's runs. */
  readonly replies: number;
  /** Of those, replies that look like a call in another format than tool_format. */
  readonly other_format_replies: number;
}

/** One row per agent (model, design) in the log; `formatOf` gives a model's recorded format (hermes if unknown). */
export function formatMismatchRows(
  records: readonly AnswerRecord[],
  formatOf: (model: string) => RunFormat | undefined,
): FormatMismatchRow[] {
  return groupRuns(records)
    .filter(({ design }) => design !== "workflow" && !isEngineered(design))
    .map(({ model, design, runs }) => {
      const tool_format = formatOf(model) ?? "hermes";
      const replies = runs.flatMap((r) => r.transcript.calls.map((c) => c.reply));
      return {
        model,
        design,
        tool_format,
        replies: replies.length,
        other_format_replies: replies.filter((reply) => looksForeign(reply, dialectOf(tool_format))).length,
      };
    });
}
