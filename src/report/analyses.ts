// What rescore and compare print, from run folders as readRunFolder opened them: one split of failed runs for both.
import path from "node:path";
import { UserError } from "../common/index.ts";
import { compareRuns, questionKey, splitFailed, splitQuestionSets, strictRows, twoPostRows } from "../scoring/index.ts";
import { progressNotice, type AnswerRecord } from "../runs/index.ts";
import { comparisonsMarkdown } from "./comparisons-text.ts";
import { modelLabels, runModelLabels } from "./model-labels.ts";
import { randomWeightsLabel } from "./random-weights.ts";
import type { ReadRun } from "./read-run-folder.ts";
import { markdownTable, strictTableMarkdown, twoPostTableMarkdown } from "./tables.ts";
import { withholdingComparison } from "./withholding-tables.ts";
import { tableInputs } from "./table-inputs.ts";
import { gridsOf, tablesJson } from "./table-list.ts";

/** rescore's rows: the study's strict rescore over one-post questions, the two-post table over the rest. */
function rescoreRows(run: ReadRun) {
  const { scored, failed } = splitFailed(run.records);
  const sets = splitQuestionSets(scored);
  const failedSets = splitQuestionSets(failed);
  return {
    sets,
    failedSets,
    onePost: strictRows(sets.onePost, run.slugs),
    twoPost: twoPostRows(sets.twoPost, run.slugs, failed),
  };
}

/** rescore --json: every table tables.md shows for the folder, keyed by its id (see tablesJson). */
export function rescoreJson(run: ReadRun, onNotice?: (line: string) => void): string {
  return JSON.stringify({ tables: tablesJson(tableInputs(run, onNotice)) });
}

/**
 * rescore's tables, one per question set, each with its left-out line; then the tables of what the folder records
 * beside its log: the judge's (after rescore --judge), the withheld-source test's (after rescore --against).
 */
export function rescoreText(run: ReadRun, onNotice?: (line: string) => void): string {
  const { sets, failedSets, onePost, twoPost } = rescoreRows(run);
  const label = runModelLabels(run.manifest, run.records);
  const tables: string[] = randomWeightsLabel(run.manifest);
  if (run.progress !== undefined) tables.push(`**${progressNotice(run.progress)}**`);
  if (sets.onePost.length > 0 || sets.twoPost.length === 0)
    tables.push(strictTableMarkdown(onePost, label, failedSets.onePost));
  if (sets.twoPost.length > 0) tables.push(twoPostTableMarkdown(twoPost, label, failedSets.twoPost));
  const inputs = tableInputs(run, onNotice);
  for (const id of ["judge", "withholding"]) tables.push(...gridsOf(id, inputs).map(markdownTable));
  return tables.join("\n\n");
}

export interface CompareOptions {
  /** compare A B --common-questions: two folders that asked different questions are compared on those they share. */
  readonly commonQuestions?: boolean | undefined;
  /** Where what the withheld-source test left out, or why it could not pair the folders, is said; default stderr. */
  readonly onNotice?: ((line: string) => void) | undefined;
}

/**
 * compare's comparisons of one folder, or of two folders' runs tagged by folder, failed runs left out. Two folders
 * must have asked the same questions (questionKey: the text and gold posts, not the id alone): otherwise they are
 * refused, or, with commonQuestions, restricted to the questions both asked, with a line saying how many.
 */
function comparisons(run: ReadRun, other: ReadRun | undefined, options: CompareOptions) {
  let records = run.records;
  let common: string | undefined;
  let label = runModelLabels(run.manifest, run.records);
  if (other !== undefined) {
    const shared = sharedQuestions(run, other, options);
    const tagged = tagFolders(run, other);
    records = tagged.filter((r) => shared.keys.has(questionKey(r)));
    label = modelLabels(tagged.map((r) => r.model));
    common = shared.note;
  }
  const { scored, failed } = splitFailed(records);
  return { comparisons: compareRuns(scored, run.slugs), failed, common, label };
}

/**
 * compare --json: the comparisons, and every table tables.md shows for the first folder, keyed by id; with a second
 * folder that pairs with it for the withheld-source test, that pair's table stands for the one the folder records.
 */
export function compareJson(run: ReadRun, other?: ReadRun, options: CompareOptions = {}): string {
  const inputs = tableInputs(run, options.onNotice);
  const pair = withheldPair(run, other, options);
  const tables = tablesJson(pair.comparison === undefined ? inputs : { ...inputs, withholding: pair.comparison });
  return JSON.stringify({ comparisons: comparisons(run, other, options).comparisons, tables });
}

export function compareText(run: ReadRun, other?: ReadRun, options: CompareOptions = {}): string {
  const { comparisons: list, failed, common, label } = comparisons(run, other, options);
  const blocks = [...randomWeightsLabel(run.manifest), ...(common === undefined ? [] : [common])];
  const { comparison, problem } = withheldPair(run, other, options);
  const withholding =
    comparison !== undefined ? markdownTable(comparison.grid) : problem && `**No withheld-source test: ${problem}.**`;
  return [...blocks, comparisonsMarkdown(list, label, failed), ...(withholding ? [withholding] : [])].join("\n\n");
}

/**
 * compare's withheld-source test of a normal and a withheld folder. Two such folders that cannot be paired (no model
 * or design in both, another decoding) still get compare's other tables, as two other folders would: the withheld
 * table is left out, and why is said in its place and on stderr, as is what a partial pairing left out.
 */
function withheldPair(run: ReadRun, other: ReadRun | undefined, options: CompareOptions) {
  const pair = other === undefined ? undefined : withholdingComparison(run, other);
  const notice = options.onNotice ?? console.error;
  if (pair === undefined) return { comparison: undefined, problem: undefined };
  if ("problem" in pair) {
    notice(`compare: no withheld-source test: ${pair.problem}`);
    return { comparison: undefined, problem: pair.problem };
  }
  for (const line of pair.comparison.notices) notice(`compare: withheld-source test: ${line}`);
  return { comparison: pair.comparison, problem: undefined };
}

/** The questions both folders asked; a refusal when they differ, unless `commonQuestions`, then a line saying so. */
function sharedQuestions(
  a: ReadRun,
  b: ReadRun,
  options: CompareOptions,
): { keys: ReadonlySet<string>; note: string | undefined } {
  const questions = (f: ReadRun) => new Map(f.records.map((r) => [questionKey(r), r.question_id]));
  const [qa, qb] = [questions(a), questions(b)];
  const keys = new Set([...qa.keys()].filter((k) => qb.has(k)));
  const onlyA = [...qa].filter(([k]) => !keys.has(k));
  const onlyB = [...qb].filter(([k]) => !keys.has(k));
  if (onlyA.length === 0 && onlyB.length === 0) return { keys, note: undefined };
  const counts = `${onlyA.length} of ${a.dir}'s ${qa.size}`;
  if (!options.commonQuestions) {
    const first = (onlyA[0] ?? onlyB[0])![1];
    throw new UserError(
      `compare: ${a.dir} and ${b.dir} asked different questions (${counts} are not in ${b.dir}, ` +
        `${onlyB.length} of ${b.dir}'s ${qb.size} not in ${a.dir}; first ${first}); ` +
        `add --common-questions to compare the ${keys.size} they share`,
    );
  }
  if (keys.size === 0) throw new UserError(`compare: ${a.dir} and ${b.dir} share no question to compare on`);
  const unit = keys.size === 1 ? "question" : "questions";
  return {
    keys,
    note:
      `Compared on the ${keys.size} ${unit} both folders asked; ${onlyA.length + onlyB.length} left out ` +
      `(${counts}, ${onlyB.length} of ${b.dir}'s ${qb.size}).`,
  };
}

/** Both folders' records, each model id tagged "<id> [<folder name>]", so the same model in each is two arms. */
function tagFolders(a: ReadRun, b: ReadRun): AnswerRecord[] {
  if (path.resolve(a.dir) === path.resolve(b.dir))
    throw new UserError(`compare: ${a.dir} given twice; name two run folders`);
  const blog = (f: ReadRun) => f.manifest?.corpus.sha256;
  if (blog(a) !== undefined && blog(b) !== undefined && blog(a) !== blog(b)) {
    throw new UserError(
      `compare: ${a.dir} and ${b.dir} searched different blogs (corpus sha256 differ): their answers cannot be paired`,
    );
  }
  let [tagA, tagB] = [a.dir, b.dir].map((d) => path.basename(path.resolve(d)).replace(/[\]/\\]/g, "_"));
  if (tagA === tagB) [tagA, tagB] = [`${tagA} 1`, `${tagB} 2`];
  return [
    ...a.records.map((r) => ({ ...r, model: `${r.model} [${tagA}]` })),
    ...b.records.map((r) => ({ ...r, model: `${r.model} [${tagB}]` })),
  ];
}
