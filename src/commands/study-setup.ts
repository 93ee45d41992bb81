// What run, smoke and experiment share: their progress display, the --designs, --model and --wordings they read,
// and the tables they print at the end.
import type { Corpus } from "../corpus/index.ts";
import { modelIdFor, DEFAULT_MODEL_NAMES, type Quant } from "../llm/index.ts";
import {
  BUILTIN_WORDINGS,
  DESIGN_IDS,
  ENGINEERED_DESIGNS,
  parseWordings,
  STUDY_DESIGNS,
  type DesignId,
  type Wording,
} from "../designs/index.ts";
import { readFileSync } from "node:fs";
import { readRunLog, writeTables } from "../report/index.ts";
import { leftOutNote, splitFailed } from "../scoring/index.ts";
import { UserError } from "../common/index.ts";
import path from "node:path";
import type { OnTick } from "../common/index.ts";
import { commandProgress } from "./progress-display.ts";
import { say } from "./io.ts";

/** --wordings: "builtin", or a JSON file of wordings (each checked, an unknown field named). */
export function readWordings(arg: string): readonly Wording[] {
  if (arg === "builtin") return BUILTIN_WORDINGS;
  let text: string;
  try {
    text = readFileSync(arg, "utf8");
  } catch (error) {
    throw new UserError(`--wordings ${arg}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(`--wordings ${arg}: not valid JSON (${(error as Error).message})`);
  }
  return parseWordings(value, arg);
}

/** Where run, smoke and experiment report: lines, and counts shown as one bar on a terminal (plain lines elsewhere). */
export const display = commandProgress();
export const progress = (message: string) => display.message(message);
export const tick: OnTick = (t) => display.tick(t);

/** Names that stand for several designs in --designs. */
export const DESIGN_GROUPS: Readonly<Record<string, readonly DesignId[]>> = {
  study: STUDY_DESIGNS,
  engineered: ENGINEERED_DESIGNS,
};

/** --designs a,b as checked design ids, each once, a group name (study, engineered) standing for its designs. */
export function parseDesigns(list: string | undefined): DesignId[] {
  if (list === undefined) return [...STUDY_DESIGNS];
  const names = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter(
    (id) => !Object.hasOwn(DESIGN_GROUPS, id) && !(DESIGN_IDS as readonly string[]).includes(id),
  );
  const choices = [...Object.keys(DESIGN_GROUPS), ...DESIGN_IDS].join(", ");
  if (unknown.length > 0) throw new UserError(`unknown design ${unknown.join(", ")}; choose from ${choices}`);
  // An empty list would run nothing and print empty tables.
  if (names.length === 0) throw new UserError(`--designs names no design; choose from ${choices}`, 2);
  return [
    ...new Set(names.flatMap((id) => (Object.hasOwn(DESIGN_GROUPS, id) ? DESIGN_GROUPS[id]! : [id as DesignId]))),
  ];
}

/** --model values (default: the study's two models) as ids loadModel understands. */
export function modelIds(models: readonly string[] | undefined, quant: Quant): string[] {
  return (models && models.length > 0 ? models : DEFAULT_MODEL_NAMES).map((m) => modelIdFor(m, quant));
}

/** Scores the folder's log, writes its tables and prints them; stderr says how many runs failed and were left out. */
export function scoreAndPrint(outDir: string, corpus: Corpus): void {
  const { answersFile: file, records } = readRunLog(outDir, { onNotice: progress });
  const leftOut = leftOutNote(splitFailed(records).failed);
  if (leftOut !== undefined) progress(`${file}: ${leftOut}`);
  const { markdown, files } = writeTables(
    outDir,
    records,
    corpus.posts.map((p) => p.slug),
    { sections: corpus.sections.length },
  );
  say(markdown);
  progress(`tables written to ${path.join(outDir, files[0]!)}, ${files.slice(1).join(", ")}`);
}
