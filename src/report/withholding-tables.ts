// The withheld-source test as a table: per design, right citations and right answers with the gold shown and withheld.
import path from "node:path";
import { UserError } from "../common/index.ts";
import { formatP, questionKey, splitFailed, withholdingRows, type WithholdingRow } from "../scoring/index.ts";
import { DESIGN_LABELS } from "../designs/index.ts";
import type { RunManifest } from "../runs/index.ts";
import { modelLabels } from "./model-labels.ts";
import type { TableGrid } from "./tables.ts";
import type { ReadRun } from "./run-folder.ts";

/** What the withheld-source test reads of a folder. */
export type PairedFolder = Pick<ReadRun, "dir" | "records" | "manifest" | "slugs">;

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
  // named among the models the test paired, those both folders ran
  const label = modelLabels(rows.map((r) => r.model));
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
      label(r.model),
      DESIGN_LABELS[r.design],
      fraction(r.cites_right_shown, r.n),
      fraction(r.cites_right_withheld, r.n),
      fraction(r.citation_survives, r.n),
      formatP(r.p_cites),
      fraction(r.answer_right_shown, r.n_with_facts ?? 0),
      fraction(r.answer_right_withheld, r.n_with_facts ?? 0),
      fraction(r.answer_survives, r.n_with_facts ?? 0),
      r.p_answer === null ? "" : formatP(r.p_answer),
    ]),
    notes: [
      "Paired by question; p from the exact McNemar test. A citation that survives withholding named the gold post " +
        "without the run having seen its gold section (post-rationalized); an answer that survives came from memory. " +
        "Answer right counts the questions with key facts only. " +
        "With --withhold gold the run may still have seen the gold post's other sections; --withhold gold-post rules that out.",
    ],
  };
}

/**
 * A normal run against a withheld one (either order): the table of what survives withholding; undefined unless
 * exactly one of the two withheld. Failed runs are left out; pairs are the questions both asked.
 */
export function withholdingComparison(a: PairedFolder, b: PairedFolder): WithheldComparison | undefined {
  const pair = pairOf(a, b);
  return pair === undefined ? undefined : { grid: pair.grid, rows: pair.rows, mode: pair.mode };
}

/** The withheld-source test of two folders, for tables.md and withholding.csv as for the page. */
export interface WithheldComparison {
  readonly grid: TableGrid;
  readonly rows: readonly WithholdingRow[];
  /** What the withheld run left out: gold or gold-post. */
  readonly mode: string;
}

function pairOf(
  a: PairedFolder,
  b: PairedFolder,
): (WithheldComparison & { shown: PairedFolder; withheld: PairedFolder }) | undefined {
  const [ma, mb] = [withheldOf(a.manifest), withheldOf(b.manifest)];
  if ((ma === "none") === (mb === "none")) return undefined;
  const [shown, withheld] = ma === "none" ? [a, b] : [b, a];
  const scored = (f: PairedFolder) => splitFailed(f.records).scored;
  const mode = ma === "none" ? mb : ma;
  const rows = withholdingRows(scored(shown), scored(withheld), a.slugs);
  return { grid: withholdingGrid(rows, mode), rows, mode, shown, withheld };
}

/**
 * report --against and rescore --against (`command` names which, for its messages): the withheld-source test of
 * `a` against `b`, refused in one line unless they are two folders of one blog that asked the same questions (the
 * text and gold posts, as compare pairs them), exactly one of them run with --withhold.
 */
export function withheldComparison(a: PairedFolder, b: PairedFolder, command: string): WithheldComparison {
  if (path.resolve(a.dir) === path.resolve(b.dir))
    throw new UserError(`${command}: ${a.dir} given twice; name a normal run and a --withhold run of it`);
  const pair = pairOf(a, b);
  if (pair === undefined) {
    const modes = `${a.dir}: --withhold ${withheldOf(a.manifest)}, ${b.dir}: --withhold ${withheldOf(b.manifest)}`;
    throw new UserError(`${command}: exactly one of ${a.dir} and ${b.dir} must be a --withhold run (${modes})`);
  }
  const blog = (f: PairedFolder) => f.manifest?.corpus.sha256;
  if (blog(a) !== undefined && blog(b) !== undefined && blog(a) !== blog(b))
    throw new UserError(
      `${command}: ${a.dir} and ${b.dir} searched different blogs (corpus sha256 differ): their answers cannot be paired`,
    );
  const questions = (f: PairedFolder) => new Map(f.records.map((r) => [questionKey(r), r.question_id]));
  const [qa, qb] = [questions(a), questions(b)];
  const onlyA = [...qa].filter(([k]) => !qb.has(k));
  const onlyB = [...qb].filter(([k]) => !qa.has(k));
  if (onlyA.length > 0 || onlyB.length > 0)
    throw new UserError(
      `${command}: ${a.dir} and ${b.dir} asked different questions (${onlyA.length} of ${a.dir}'s ${qa.size} are not ` +
        `in ${b.dir}, ${onlyB.length} of ${b.dir}'s ${qb.size} not in ${a.dir}; first ${(onlyA[0] ?? onlyB[0])![1]}): ` +
        "the withheld-source test pairs each question with itself; run both on the same questions",
    );
  const { grid, rows, mode, shown, withheld } = pair;
  const folders = `Gold shown: ${shown.dir}; withheld: ${withheld.dir}.`;
  return { grid: { ...grid, notes: [...(grid.notes ?? []), folders] }, rows, mode };
}

/** withholding.csv: the rows, each with what the withheld run left out. */
export function withholdingCsvRows(comparison: WithheldComparison): object[] {
  return comparison.rows.map((r) => ({ withhold: comparison.mode, ...r }));
}
