// A run folder's table inputs, from the folder alone: its log, its manifest, and what commands recorded beside them
// (the judge's verdicts in judgments.jsonl, the withheld run withheld-pair.json names).
import path from "node:path";
import { UserError } from "../common/index.ts";
import { conditionSummary, splitFailed, splitQuestionSets } from "../scoring/index.ts";
import {
  readJudgments,
  readManifest,
  readWithheldPair,
  WITHHELD_PAIR_FILE,
  type AnswerRecord,
  type RunManifest,
} from "../runs/index.ts";
import { runModelLabels } from "./model-labels.ts";
import { readRunLog } from "./read-run-folder.ts";
import type { TableInputs } from "./table-list.ts";
import type { TableContext } from "./tables.ts";
import { withheldComparison, type PairedFolder } from "./withholding-tables.ts";

/** A folder as the table writers read it: `records` is the whole log, failed runs included. */
export interface TableFolder {
  readonly dir: string;
  readonly records: readonly AnswerRecord[];
  readonly slugs: readonly string[];
  readonly context: TableContext;
  readonly manifest: RunManifest | undefined;
}

/** What a folder records beside its log for the tables: the judge's verdicts and the withheld-source test. */
export type RecordedInputs = Pick<TableInputs, "judgments" | "withholding">;

/** The inputs of every table of `folder`; a notice (a torn judgment line) goes to `onNotice`. */
export function tableInputs(folder: TableFolder, onNotice: (line: string) => void = console.error): TableInputs {
  return inputsOf(folder, {
    judgments: readJudgments(folder.dir, folder.records, onNotice),
    withholding: recordedPair(folder, onNotice),
  });
}

/** The inputs of a folder's log with what it records given (none: a folder never judged nor paired). */
export function inputsOf(
  folder: Omit<TableFolder, "dir">,
  recorded: RecordedInputs = { judgments: [], withholding: undefined },
): TableInputs {
  const { scored, failed } = splitFailed(folder.records);
  return {
    all: folder.records,
    scored,
    failed,
    sets: splitQuestionSets(scored),
    failedSets: splitQuestionSets(failed),
    slugs: folder.slugs,
    context: { ...folder.context, conditions: conditionSummary(folder.records) },
    manifest: folder.manifest,
    label: runModelLabels(folder.manifest, folder.records),
    ...recorded,
  };
}

/**
 * The withheld-source test against the folder withheld-pair.json names, checked as `rescore --against` checked it.
 * A pair that cannot be read (moved, deleted, run again on other questions) stops with one line naming the record.
 */
function recordedPair(folder: TableFolder, onNotice: (line: string) => void) {
  const other = readWithheldPair(folder.dir);
  if (other === undefined) return undefined;
  const record = path.join(folder.dir, WITHHELD_PAIR_FILE);
  try {
    const { dir, records } = readRunLog(other, { onNotice });
    const paired: PairedFolder = { dir, records, manifest: readManifest(dir), slugs: folder.slugs };
    return withheldComparison(folder, paired, record);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(
      `${record} pairs this folder with ${other} for the withheld-source test, which cannot be read: ` +
        `${error.message}; put that folder back, or remove ${record}`,
    );
  }
}
