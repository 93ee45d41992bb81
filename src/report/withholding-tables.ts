// The withheld-source test as a table: per design, right citations and right answers with the gold shown and withheld.
import { formatP, splitFailed, withholdingRows, type WithholdingRow } from "../scoring/index.ts";
import { DESIGN_LABELS } from "../designs/index.ts";
import type { RunManifest } from "../runs/index.ts";
import { modelLabel, type TableGrid } from "./tables.ts";
import type { ReadRun } from "./run-folder.ts";

/** What a run folder withheld from each question's index; "none" for a normal run and for manifests before the flag. */
function withheldOf(manifest: RunManifest | undefined): string {
  return manifest?.settings.withhold ?? "none";
}

/** The sentence a withheld run's tables and page open with; undefined for a normal run. */
export function withheldNote(manifest: RunManifest | undefined): string | undefined {
  const mode = withheldOf(manifest);
  if (mode === "none") return undefined;
  const what = mode === "gold" ? "its gold section" : "its whole gold post";
  return (
    `Withheld-source run (--withhold ${mode}): each question's runs searched and read an index without ${what}, so ` +
    "every right citation and right answer here was made without seeing it. `compare` pairs it with a normal run."
  );
}

const fraction = (k: number | null, n: number) => (k === null ? "" : `${k}/${n}`);

function withholdingGrid(rows: readonly WithholdingRow[], mode: string): TableGrid {
  return {
    caption: `Withheld-source test (--withhold ${mode}): cites right (strict) and answer right, gold shown vs withheld`,
    header: [
      "set",
      "model",
      "design",
      "cites right, shown",
      "cites right, withheld",
      "citation survives",
      "p",
      "answer right, shown",
      "answer right, withheld",
      "answer survives",
      "p",
    ],
    rows: rows.map((r) => [
      r.set,
      modelLabel(r.model),
      DESIGN_LABELS[r.design],
      fraction(r.cites_right_shown, r.n),
      fraction(r.cites_right_withheld, r.n),
      fraction(r.citation_survives, r.n),
      formatP(r.p_cites),
      fraction(r.answer_right_shown, r.n),
      fraction(r.answer_right_withheld, r.n),
      fraction(r.answer_survives, r.n),
      r.p_answer === null ? "" : formatP(r.p_answer),
    ]),
    notes: [
      "Paired by question; p from the exact McNemar test. A citation that survives withholding named the gold post " +
        "without the run having seen its gold section (post-rationalized); an answer that survives came from memory. " +
        "With --withhold gold the run may still have seen the gold post's other sections; --withhold gold-post rules that out.",
    ],
  };
}

/**
 * A normal run against a withheld one (either order): the table of what survives withholding; undefined unless
 * exactly one of the two withheld. Failed runs are left out; pairs are the questions both asked.
 */
export function withholdingComparison(a: ReadRun, b: ReadRun): TableGrid | undefined {
  const [ma, mb] = [withheldOf(a.manifest), withheldOf(b.manifest)];
  if ((ma === "none") === (mb === "none")) return undefined;
  const [shown, withheld] = ma === "none" ? [a, b] : [b, a];
  const scored = (f: ReadRun) => splitFailed(f.records).scored;
  return withholdingGrid(withholdingRows(scored(shown), scored(withheld), a.slugs), ma === "none" ? mb : ma);
}
