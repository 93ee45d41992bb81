// The paired comparisons as tables: proportions with 95% intervals, exact McNemar p, the questions that flip.
import { fewestSignificantFlips, formatP, formatProportion, type Comparison, type Measure } from "../scoring/index.ts";
import { DESIGN_LABELS } from "../designs/index.ts";
import type { ModelLabel } from "./model-labels.ts";
import { leftOutNotes, markdownCell, type LeftOutRun } from "./tables.ts";

export const MEASURE_LABELS: Readonly<Record<Measure, string>> = {
  found: "found",
  cites_right: "cites right (strict)",
};

/**
 * What the comparisons can show, from their own question counts: how many questions must flip, all one way, before
 * p can fall below 0.05, and what share of the questions that is. Example, 30 paired questions: "... at least 6 of
 * the 30 questions (20 points) ...".
 */
export function comparisonsNote(comparisons: readonly Comparison[]): string {
  const head =
    "Paired comparisons on the same questions: k/n (share, 95% Wilson interval); p from the exact McNemar test " +
    "(two-sided binomial on the questions that flip).";
  const counts = [...new Set(comparisons.map((c) => c.a.n))].sort((a, b) => a - b);
  if (counts.length === 0) return head;
  const flips = fewestSignificantFlips(0.05);
  const least = counts[0]!;
  const most = counts[counts.length - 1]!;
  const questions =
    least === most ? `${most} paired question${most === 1 ? "" : "s"}` : `${least} to ${most} paired questions`;
  if (most < flips) {
    return `${head} With ${questions}, no difference can reach p < 0.05: that takes at least ${flips} questions flipping, all the same way. Read every p here as no evidence either way.`;
  }
  const after = "read p above 0.05 as no evidence of a difference, not as evidence of none.";
  // With exactly as many questions as must flip, every one must flip the same way: there is no room to split.
  if (least === most && most === flips)
    return `${head} With ${questions}, p < 0.05 needs all ${most} to flip, all the same way; ${after}`;
  const share = least === most ? ` of the ${most} questions (${Math.round((100 * flips) / most)} points)` : "";
  const split = least > flips ? ", and more when they split" : "";
  return `${head} With ${questions}, p < 0.05 needs at least ${flips}${share} flipping, all the same way${split}; ${after}`;
}

export const NO_COMPARISONS =
  "No comparisons: the log needs the workflow and an agent design of one model, or one design of two models.";

/** One table of comparisons: a model's designs against its workflow, or two models design by design. */
export interface ComparisonTable {
  readonly title: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** On two-post questions found means found all, and cites right means the source line names exactly the gold posts. */
export const TWO_POST_MEASURE_LABELS: Readonly<Record<Measure, string>> = {
  found: "found all",
  cites_right: "cites exactly both",
};

/** One table per set, model and kind of comparison; two-post tables say so in their title. */
export function comparisonTables(comparisons: readonly Comparison[], label: ModelLabel): ComparisonTable[] {
  const groups = new Map<string, Comparison[]>();
  for (const c of comparisons) {
    const key = JSON.stringify(
      c.across === "models" ? [c.set, c.across, c.a.model, c.b.model] : [c.set, c.across, c.a.model],
    );
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.values()].map((group) => withCondition(group[0]!, tableOf(group, label)));
}

/** A table's title naming the one condition its runs come from, when the log holds several. */
function withCondition(c: Comparison, table: ComparisonTable): ComparisonTable {
  if (c.condition === undefined) return table;
  const { wording, sample, of } = c.condition;
  return {
    ...table,
    title:
      `${table.title} (wording "${wording}", sample ${sample}: one of the log's ${of} wording and sample ` +
      "conditions, one run per question; the samples and wordings tables pair them all)",
  };
}

/** The table of one group: a model's designs, its engineered designs, or two models. */
function tableOf(group: readonly Comparison[], label: ModelLabel): ComparisonTable {
  const first = group[0]!;
  const measures = first.set === "two-post" ? TWO_POST_MEASURE_LABELS : MEASURE_LABELS;
  const setTitle = first.set === "two-post" ? "two-post questions, " : "";
  const cells = (c: Comparison, design: string) => [
    design,
    measures[c.measure],
    formatProportion(c.a),
    formatProportion(c.b),
    formatP(c.p),
    ids(c.a_only),
    ids(c.b_only),
  ];
  if (first.across === "designs") {
    return {
      title: `${setTitle}${label(first.a.model)}: each agent design against "${DESIGN_LABELS.workflow}"`,
      header: ["design", "measure", "workflow", "design", "p", "only the workflow", "only the design"],
      rows: group.map((c) => cells(c, DESIGN_LABELS[c.b.design])),
    };
  }
  if (first.across === "extends") {
    return {
      title: `${setTitle}${label(first.a.model)}: each engineered design against the study design it extends`,
      header: ["design", "measure", "study design", "engineered", "p", "only the study design", "only the engineered"],
      rows: group.map((c) => cells(c, `${DESIGN_LABELS[c.b.design]} (against ${DESIGN_LABELS[c.a.design]})`)),
    };
  }
  const [a, b] = [label(first.a.model), label(first.b.model)];
  return {
    title: `${setTitle}${a} against ${b}, design by design`,
    header: ["design", "measure", a, b, "p", `only ${a}`, `only ${b}`],
    rows: group.map((c) => cells(c, DESIGN_LABELS[c.a.design])),
  };
}

/** True when some comparison left out questions answered on one side only (an unfinished run). */
export function hasUnpaired(comparisons: readonly Comparison[]): boolean {
  return comparisons.some((c) => c.unpaired.length > 0);
}

export const UNPAIRED_NOTE =
  "Some runs are missing on one side (an unfinished run?); those questions are left out of their comparison.";

/** `failed`: the runs left out of every comparison because their call failed, counted in a line at the end. */
export function comparisonsMarkdown(
  comparisons: readonly Comparison[],
  label: ModelLabel,
  failed: readonly LeftOutRun[] = [],
): string {
  if (comparisons.length === 0) return [NO_COMPARISONS, ...leftOutNotes(failed)].join("\n\n");
  const blocks = [
    comparisonsNote(comparisons),
    ...comparisonTables(comparisons, label).map((t) =>
      [t.title, "", row(t.header), row(t.header.map(() => "---")), ...t.rows.map(row)].join("\n"),
    ),
  ];
  if (hasUnpaired(comparisons)) blocks.push(UNPAIRED_NOTE);
  blocks.push(...leftOutNotes(failed));
  return blocks.join("\n\n");
}

function ids(list: readonly string[]): string {
  return list.length === 0 ? "-" : list.join(" ");
}

function row(values: readonly string[]): string {
  return `| ${values.map(markdownCell).join(" | ")} |`;
}
