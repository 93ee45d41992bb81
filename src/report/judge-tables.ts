// The model judge beside the key facts: per question set, model and design, its verdicts and their agreement with the
// rule-based answer right. Shown only for a folder with judgments (rescore --judge); never part of any other table.
import { judgeRows, type JudgeRow } from "../scoring/index.ts";
import { DESIGN_LABELS } from "../designs/index.ts";
import type { AnswerRecord, Judgment } from "../runs/index.ts";
import type { ModelLabel } from "./model-labels.ts";
import type { Cell, TableGrid } from "./tables.ts";

/** The page's title for the judge's tables. */
export const JUDGE_TITLE = "The model judge, beside the key facts";

/** The agreement cells: parsed verdicts agreeing with answer right, and kappa ("undefined" by its convention). */
function agreement(r: JudgeRow): [Cell, Cell] {
  const parsed = r.supported + r.unsupported;
  if (parsed === 0) return ["", ""];
  const agree = r.supported_right + r.unsupported_not_right;
  return [`${agree}/${parsed}`, r.kappa === null ? "undefined" : r.kappa.toFixed(2)];
}

/** The judge's model and the URLs it was reached at, as its lines record them (the same model throughout). */
function judgeOf(judgments: readonly Judgment[]): { model: string; urls: string } {
  return { model: judgments[0]!.judge_model, urls: [...new Set(judgments.map((j) => j.judge_url))].join(", ") };
}

/** The grids, one per question set with runs to judge; none for a folder nothing was judged in. */
export function judgeGrids(
  records: readonly AnswerRecord[],
  judgments: readonly Judgment[],
  label: ModelLabel,
): TableGrid[] {
  if (judgments.length === 0) return [];
  const rows = judgeRows(records, judgments);
  const judge = judgeOf(judgments);
  const sets = [...new Set(rows.map((r) => r.set))];
  return sets.map((set) => ({
    caption: `Model judge (${set} questions): ${judge.model}'s verdict on each answer against its gold section, beside answer right`,
    header: [
      "model",
      "design",
      "with facts",
      "judged",
      "supported",
      "not supported",
      "unparsed",
      "agree with answer right",
      "kappa",
    ],
    rows: rows
      .filter((r) => r.set === set)
      .map((r) => [
        label(r.model),
        DESIGN_LABELS[r.design],
        r.with_facts,
        r.judged,
        r.supported,
        r.unsupported,
        r.unparsed,
        ...agreement(r),
      ]),
    notes: [
      `The judge (${judge.model} at ${judge.urls}) was asked whether each answer is supported by its gold section's ` +
        'text; its verdict is its reply\'s first word, "yes" or "no", and any other reply is unparsed: counted here, ' +
        "never guessed. Agree and Cohen's kappa compare its parsed verdicts with answer right (every key fact stated, " +
        "the rule-based measure), unparsed ones left out; kappa is undefined where both put every run in one class. " +
        "The judge is a model: its verdicts are in no other table.",
    ],
  }));
}

/** judge.csv: the rows with the judge's model, kappa blank where undefined. */
export function judgeCsvRows(records: readonly AnswerRecord[], judgments: readonly Judgment[]): object[] {
  if (judgments.length === 0) return [];
  const { model } = judgeOf(judgments);
  return judgeRows(records, judgments).map((r) => ({ judge_model: model, ...r, kappa: r.kappa ?? "" }));
}
