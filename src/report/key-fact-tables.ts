// "Answers and evidence": the key-fact table, one per question set, each cell blank where the questions have no facts.
import { keyFactRows, type KeyFactRow } from "../scoring/index.ts";
import { DESIGN_LABELS } from "../designs/index.ts";
import type { AnswerRecord } from "../runs/index.ts";
import type { ModelLabel } from "./model-labels.ts";
import type { Cell, TableGrid } from "./tables.ts";

const blank = (x: number | null): Cell => (x === null ? "" : x);

/** The grids, one per question set the log holds; none for a log whose questions carry no facts. */
export function keyFactGrids(
  records: readonly AnswerRecord[],
  slugs: readonly string[],
  label: ModelLabel,
): TableGrid[] {
  const rows = keyFactRows(records, slugs);
  if (!rows.some((r) => r.with_facts > 0)) return [];
  const sets = [...new Set(rows.map((r) => r.set))];
  return sets.map((set) =>
    grid(
      set,
      rows.filter((r) => r.set === set),
      label,
    ),
  );
}

function grid(set: KeyFactRow["set"], rows: readonly KeyFactRow[], label: ModelLabel): TableGrid {
  return {
    caption: `Answers and evidence (${set} questions): key facts stated, crossed with the strict citation`,
    header: [
      "model",
      "design",
      "n",
      "with facts",
      "facts stated",
      "answer right",
      "right, cited right",
      "right, cited wrong",
      "cited right, wrong",
      "from evidence",
      "from memory",
    ],
    rows: rows.map((r) => [
      label(r.model),
      DESIGN_LABELS[r.design],
      r.n,
      r.with_facts,
      r.facts_stated === null ? "" : `${r.facts_stated}/${r.facts_asked}`,
      blank(r.answer_right),
      blank(r.right_cited_right),
      blank(r.right_cited_wrong),
      blank(r.cited_right_wrong),
      blank(r.from_evidence),
      blank(r.from_memory),
    ]),
    notes: [
      "Answer right: the answer states every key fact of its question (rule-based phrase match, numbers as digits or " +
        "words). Cited right is the strict rescore. From evidence: the facts it states were all in what the run's tools " +
        "showed it; from memory: it states one they never showed. Blank where the questions carry no facts.",
    ],
  };
}
