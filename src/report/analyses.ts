// What rescore and compare print, from run folders as readRunFolder opened them: one split of failed runs for both.
import path from "node:path";
import { UserError } from "../common/index.ts";
import { compareRuns, splitFailed, splitQuestionSets, strictRows, twoPostRows } from "../scoring/index.ts";
import type { AnswerRecord } from "../runs/index.ts";
import { comparisonsMarkdown } from "./comparisons-text.ts";
import type { ReadRun } from "./run-folder.ts";
import { strictTableMarkdown, twoPostTableMarkdown } from "./tables.ts";

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

/** rescore --json: a log of the study's questions prints the study's rows, as before; one with two-post ones, both. */
export function rescoreJson(run: ReadRun): string {
  const { sets, onePost, twoPost } = rescoreRows(run);
  return JSON.stringify(sets.twoPost.length === 0 ? onePost : { one_post: onePost, two_post: twoPost });
}

/** rescore's tables, one per question set, each with its left-out line. */
export function rescoreText(run: ReadRun): string {
  const { sets, failedSets, onePost, twoPost } = rescoreRows(run);
  const tables: string[] = [];
  if (sets.onePost.length > 0 || sets.twoPost.length === 0)
    tables.push(strictTableMarkdown(onePost, failedSets.onePost));
  if (sets.twoPost.length > 0) tables.push(twoPostTableMarkdown(twoPost, failedSets.twoPost));
  return tables.join("\n\n");
}

/** compare's comparisons of one folder, or of two folders' runs tagged by folder, failed runs left out. */
function comparisons(run: ReadRun, other?: ReadRun) {
  const records = other === undefined ? run.records : tagFolders(run, other);
  const { scored, failed } = splitFailed(records);
  return { comparisons: compareRuns(scored, run.slugs), failed };
}

export function compareJson(run: ReadRun, other?: ReadRun): string {
  return JSON.stringify(comparisons(run, other).comparisons);
}

export function compareText(run: ReadRun, other?: ReadRun): string {
  const { comparisons: list, failed } = comparisons(run, other);
  return comparisonsMarkdown(list, failed);
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
