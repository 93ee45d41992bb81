// The withheld-source test as a table: per design, right citations and right answers with the gold shown and withheld.
import path from "node:path";
import { UserError } from "../common/index.ts";
import {
  conditionOf,
  conditionsOf,
  formatP,
  questionKey,
  splitFailed,
  withholdingRows,
  type WithholdingRow,
} from "../scoring/index.ts";
import { DESIGN_IDS, DESIGN_LABELS, type DesignId } from "../designs/index.ts";
import type { AnswerRecord, RunManifest } from "../runs/index.ts";
import { modelLabels } from "./model-labels.ts";
import type { TableGrid } from "./tables.ts";
import type { ReadRun } from "./read-run-folder.ts";

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

/** The (wording, sample) condition the test pairs: one run per question on each side, from the same condition. */
interface PairedCondition {
  readonly wording: string;
  readonly sample: number;
}

/** The withheld-source test of two folders, for tables.md and withholding.csv as for the page. */
export interface WithheldComparison {
  readonly grid: TableGrid;
  readonly rows: readonly WithholdingRow[];
  /** What the withheld run left out: gold or gold-post. */
  readonly mode: string;
  readonly condition: PairedCondition;
  /**
   * What the pairing left out (models, designs) and which condition it paired where the folders hold several, as
   * the notes under the table say it, for the command to say on stderr too; empty when nothing was left out.
   */
  readonly notices: readonly string[];
}

/** A normal run and a withheld one that can be paired, or why they cannot; undefined unless exactly one withheld. */
type WithholdingPair = { readonly comparison: WithheldComparison } | { readonly problem: string };

/**
 * A normal run against a withheld one (either order), for compare: the table of what survives withholding, or the
 * reason two such folders cannot be paired; undefined unless exactly one of the two withheld. Failed runs are left
 * out; pairs are the questions both asked.
 */
export function withholdingComparison(a: PairedFolder, b: PairedFolder): WithholdingPair | undefined {
  const pair = pairOf(a, b);
  return pair === undefined || "problem" in pair ? pair : { comparison: pair.comparison };
}

/** How a folder decoded: a run that sampled logs its seed; the values it sampled with are its manifest's settings. */
function decodingOf(f: PairedFolder): { readonly sampled: boolean; readonly values: string | undefined } {
  const sampled = f.records.some((r) => r.seed !== undefined);
  const s = f.manifest?.settings;
  if (!sampled || s === undefined) return { sampled, values: undefined };
  const value = (v: number | null | undefined) => (v === null || v === undefined ? "the model's" : String(v));
  return { sampled, values: `temperature ${value(s.temperature)}, top_p ${value(s.top_p)}, top_k ${value(s.top_k)}` };
}

const describeDecoding = (d: ReturnType<typeof decodingOf>) =>
  d.sampled ? `sampled (${d.values ?? "values unknown: no manifest"})` : "decoded greedily";

/** The folder's wordings, each with how many samples it ran, for a refusal. */
function wordingsOf(records: readonly AnswerRecord[]): string {
  const samples = new Map<string, number>();
  for (const c of conditionsOf(records)) samples.set(c.wording, (samples.get(c.wording) ?? 0) + 1);
  return [...samples].map(([w, n]) => `"${w}" (${n} ${n === 1 ? "sample" : "samples"})`).join(", ");
}

const list = (items: Iterable<string>) => [...items].join(", ");

/**
 * Which runs of the two folders pair, or why none can. The decoding must be the same (a greedy run against a sampled
 * one, or two temperatures, would mix the decoding's effect into withholding's); one (wording, sample) condition both
 * ran is paired, the first of the gold-shown folder's; a model or design only one folder ran is left out and named.
 */
function pairingOf(
  shown: PairedFolder,
  withheld: PairedFolder,
):
  | { readonly problem: string }
  | { readonly condition: PairedCondition; readonly arms: ReadonlySet<string>; readonly notices: readonly string[] } {
  const [ds, dw] = [decodingOf(shown), decodingOf(withheld)];
  if (ds.sampled !== dw.sampled || (ds.values !== undefined && dw.values !== undefined && ds.values !== dw.values))
    return {
      problem:
        `${shown.dir} ${describeDecoding(ds)} and ${withheld.dir} ${describeDecoding(dw)}: the withheld-source test ` +
        "pairs runs of one decoding; run the withheld study with the same --sampling, --temperature, --top-p and --top-k",
    };
  const [cs, cw] = [conditionsOf(shown.records), conditionsOf(withheld.records)];
  const condition = cs.find((c) => cw.some((o) => o.wording === c.wording && o.sample === c.sample));
  if (condition === undefined)
    return {
      problem:
        `${shown.dir} ran wordings ${wordingsOf(shown.records)} and ${withheld.dir} ${wordingsOf(withheld.records)}: ` +
        "no wording and sample in both to pair; run the withheld study with the same --wordings",
    };
  const inCondition = (f: PairedFolder) =>
    f.records.filter((r) => {
      const c = conditionOf(r);
      return c.wording === condition.wording && c.sample === condition.sample;
    });
  const [rs, rw] = [inCondition(shown), inCondition(withheld)];
  const models = (runs: readonly AnswerRecord[]) => new Set(runs.map((r) => r.model));
  const designs = (runs: readonly AnswerRecord[]) =>
    new Set(DESIGN_IDS.filter((d) => runs.some((r) => r.design === d)));
  const arms = (runs: readonly AnswerRecord[]) => new Set(runs.map((r) => armKey(r.model, r.design)));
  const [ms, mw, dss, dsw, as, aw] = [models(rs), models(rw), designs(rs), designs(rw), arms(rs), arms(rw)];
  const none = (what: string, a: ReadonlySet<string>, b: ReadonlySet<string>, fix: string) =>
    `${shown.dir} and ${withheld.dir} share no ${what} (${shown.dir} ran ${list(a)}; ${withheld.dir} ran ${list(b)}): ` +
    `the withheld-source test pairs each model's runs of a design with its own; ${fix}`;
  if (![...ms].some((m) => mw.has(m)))
    return { problem: none("model", ms, mw, "run the withheld study on the same models") };
  if (![...dss].some((d) => dsw.has(d)))
    return { problem: none("design", dss, dsw, "run the withheld study with the same --designs") };
  const paired = new Set([...as].filter((k) => aw.has(k)));
  if (paired.size === 0)
    return {
      problem:
        `${shown.dir} and ${withheld.dir} share no model and design run in both: ` +
        "run the withheld study with the same models and --designs",
    };
  const only = (dir: string) => `only in ${dir}`;
  const leftOut = [
    ...[...ms].filter((m) => !mw.has(m)).map((m) => `model ${m} (${only(shown.dir)})`),
    ...[...mw].filter((m) => !ms.has(m)).map((m) => `model ${m} (${only(withheld.dir)})`),
    ...[...dss].filter((d) => !dsw.has(d)).map((d) => `design ${d} (${only(shown.dir)})`),
    ...[...dsw].filter((d) => !dss.has(d)).map((d) => `design ${d} (${only(withheld.dir)})`),
    // a model and a design both folders ran, but not together in one of them
    ...[...as]
      .filter((k) => !aw.has(k) && mw.has(armOf(k).model) && dsw.has(armOf(k).design))
      .map((k) => `model ${armOf(k).model} with design ${armOf(k).design} (${only(shown.dir)})`),
    ...[...aw]
      .filter((k) => !as.has(k) && ms.has(armOf(k).model) && dss.has(armOf(k).design))
      .map((k) => `model ${armOf(k).model} with design ${armOf(k).design} (${only(withheld.dir)})`),
  ];
  const notices: string[] = [];
  if (leftOut.length > 0) notices.push(`Left out, not run in both folders: ${leftOut.join("; ")}.`);
  if (cs.length > 1 || cw.length > 1 || ds.sampled) {
    const count = (n: number) => `${n} (wording, sample) ${n === 1 ? "condition" : "conditions"}`;
    const on = `on wording "${condition.wording}", sample ${condition.sample}`;
    const lead = ds.sampled
      ? `Both folders sampled (${ds.values ?? dw.values ?? "values unknown: no manifest"}); paired ${on}`
      : `Paired ${on}`;
    notices.push(
      `${lead}: one run per question on each side, of ${shown.dir}'s ${count(cs.length)} and ` +
        `${withheld.dir}'s ${count(cw.length)}; the others are not paired.`,
    );
  }
  return { condition, arms: paired, notices };
}

const armKey = (model: string, design: string) => JSON.stringify([model, design]);
const armOf = (key: string) => {
  const [model, design] = JSON.parse(key) as [string, DesignId];
  return { model, design };
};

function pairOf(
  a: PairedFolder,
  b: PairedFolder,
):
  | { readonly comparison: WithheldComparison; readonly shown: PairedFolder }
  | { readonly problem: string }
  | undefined {
  const [ma, mb] = [withheldOf(a.manifest), withheldOf(b.manifest)];
  if ((ma === "none") === (mb === "none")) return undefined;
  const [shown, withheld] = ma === "none" ? [a, b] : [b, a];
  const pairing = pairingOf(shown, withheld);
  if ("problem" in pairing) return pairing;
  const { condition, arms, notices } = pairing;
  // The paired condition's scored runs of the models and designs both folders ran: withholdingRows sees one
  // condition on each side, so its own choice of the first condition keeps them all.
  const runs = (f: PairedFolder) =>
    splitFailed(f.records).scored.filter((r) => {
      const c = conditionOf(r);
      return c.wording === condition.wording && c.sample === condition.sample && arms.has(armKey(r.model, r.design));
    });
  const mode = ma === "none" ? mb : ma;
  const rows = withholdingRows(runs(shown), runs(withheld), a.slugs);
  const grid = withholdingGrid(rows, mode);
  const folders = `Gold shown: ${shown.dir}; withheld: ${withheld.dir}.`;
  return {
    comparison: {
      grid: { ...grid, notes: [...(grid.notes ?? []), ...notices, folders] },
      rows,
      mode,
      condition,
      notices,
    },
    shown,
  };
}

/**
 * report --against and rescore --against (`command` names which, for its messages): the withheld-source test of
 * `a` against `b`, refused in one line unless they are two folders of one blog that asked the same questions (the
 * text and gold posts, as compare pairs them), exactly one of them run with --withhold, decoded alike, and sharing a
 * model and a design (a usage error, exit status 2, for those two). What the pairing left out is in `notices`.
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
  if ("problem" in pair) throw new UserError(`${command}: ${pair.problem}`, 2);
  return pair.comparison;
}

/** withholding.csv: the rows, each with what the withheld run left out and the condition paired. */
export function withholdingCsvRows(comparison: WithheldComparison): object[] {
  const { wording, sample } = comparison.condition;
  return comparison.rows.map((r) => ({ withhold: comparison.mode, wording, sample, ...r }));
}
