// A run folder as a run writes it: opened for one plan and its settings (with every refusal a folder can give), then
// appended to one answer at a time, its models recorded, finished; commands never touch its files themselves.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { ModelInfo } from "../llm/index.ts";
import type { RunFormat } from "../toolcalls/index.ts";
import { checkWritableFolder } from "../common/index.ts";
import {
  ANSWERS_FILE,
  appendAnswer,
  dropTornTail,
  readAnswerLog,
  runKey,
  sortAnswerLog,
  type RunIdentity,
} from "./answer-log.ts";
import { type AnswerRecord, rerunOnResume } from "./answer-types.ts";
import { startManifest, type ManifestSessionOptions } from "./manifest-session.ts";
import { MANIFEST_FILE, largestCallTokens, type ManifestInputs, type RunManifest } from "./manifest.ts";
import { acquireRunLock } from "./run-lock.ts";
import type { ModelEntryFields } from "./settings.ts";
import { JUDGMENTS_FILE } from "./judgment-log.ts";
import { WITHHELD_PAIR_FILE } from "./withheld-pair.ts";

/**
 * What commands record beside the answers and the manifest: inputs to the derived files, never derived themselves
 * (the judge's verdicts cost a model's time; the withheld pair names a folder no table can guess).
 */
export const RECORDED_FILES = [JUDGMENTS_FILE, WITHHELD_PAIR_FILE] as const;

/**
 * How many runs `dir`'s answer log holds: its complete lines (a torn last line, cut short by a kill, is no run).
 * 0 when there is no log.
 */
export function loggedRunCount(dir: string): number {
  const file = path.join(dir, ANSWERS_FILE);
  if (!existsSync(file)) return 0;
  return readFileSync(file, "utf8")
    .split("\n")
    .slice(0, -1)
    .filter((line) => line.trim() !== "").length;
}

export interface RunFolder {
  readonly dir: string;
  readonly answersFile: string;
  /** Whether a run with this model, design, question, wording and sample is logged with a result (not run again). */
  has(run: RunIdentity): boolean;
  /**
   * The most tokens one logged call held (prompt and reply), over the runs that answered; 0 for none. A fitted
   * context holds at least one more, so that the folder's runs fit the context they resume under.
   */
  readonly largestLoggedCall: number;
  append(record: AnswerRecord): void;
  /** Puts the log's lines in the order `rank` gives their runs (stable; lines it ranks alike keep their order). */
  sortLog(rank: (run: RunIdentity) => number): void;
  /** Hashes a loaded model's files, refuses one that differs from this id's earlier runs, writes the manifest. */
  recordModel(info: ModelInfo & { readonly toolFormat?: RunFormat; readonly entry?: ModelEntryFields }): Promise<void>;
  /**
   * run --fresh: removes what earlier runs wrote, derived files first and the answers last, so that no table outlives
   * the answers it counted, and says how many logged runs went. Call it only once every check of the run has passed.
   */
  clear(): void;
  /** Stamps the session's end and counts into the manifest. */
  finish(result: { readonly ran: number; readonly skipped: number }): void;
  /** The manifest as it stands (undefined in a scratch folder). */
  manifest(): RunManifest | undefined;
  /** Lets another process open the folder. */
  close(): void;
}

export interface OpenRunFolderOptions extends Partial<ManifestSessionOptions> {
  /**
   * What the run is made of, checked against the folder's manifest and recorded in it. Left out only for a scratch
   * folder (a bench, a test): then no manifest is written, so no command will read the folder as a run.
   */
  readonly inputs?: ManifestInputs;
  /** The flag that named the folder, for messages. */
  readonly flag?: string;
  /** The files the analysis derives from the folder (tables, CSVs, the page), which clear() removes first. */
  readonly derivedFiles?: readonly string[];
}

/**
 * Opens `dir` for a run of `options.inputs`: refuses a folder that cannot be written, one whose answers were made with other
 * settings (or that has answers and no manifest), and one another run holds; then takes its lock and reads its log,
 * cutting a torn last line off. With `fresh` nothing is read or checked against the earlier answers, and nothing is
 * removed until clear().
 */
export function openRunFolder(dir: string, options: OpenRunFolderOptions = {}): RunFolder {
  const progress = options.onProgress ?? (() => {});
  checkWritableFolder(dir, options.flag ?? "--out");
  const { inputs } = options;
  const manifest = inputs && startManifest(dir, inputs, { ...options, cacheDir: options.cacheDir ?? ".cache" });
  mkdirSync(dir, { recursive: true });
  const release = acquireRunLock(dir, progress);
  const answersFile = path.join(dir, ANSWERS_FILE);
  const done = new Set<string>();
  let largestLoggedCall = 0;
  try {
    if (!options.fresh) {
      const log = readAnswerLog(answersFile);
      if (log.tornLine !== undefined)
        progress(
          `${answersFile}:${log.tornLine}: dropped a torn last line (an interrupted write); that run will be redone`,
        );
      dropTornTail(answersFile, log);
      // A run that ended in a call error is no result: it stays pending, and a resume retries it (not a refusal).
      for (const record of log.records) if (!rerunOnResume(record)) done.add(runKey(record));
      largestLoggedCall = largestCallTokens(log.records);
    }
  } catch (error) {
    release();
    throw error;
  }
  return {
    dir,
    answersFile,
    has: (run) => done.has(runKey(run)),
    largestLoggedCall,
    append(record) {
      appendAnswer(answersFile, record);
      if (!rerunOnResume(record)) done.add(runKey(record));
    },
    sortLog: (rank) => sortAnswerLog(answersFile, rank),
    recordModel: async (info) => manifest?.recordModel(info),
    clear() {
      const logged = loggedRunCount(dir);
      for (const file of [...(options.derivedFiles ?? []), ...RECORDED_FILES, MANIFEST_FILE, ANSWERS_FILE])
        rmSync(path.join(dir, file), { force: true, recursive: true });
      done.clear();
      // Never without a word: a start over of the wrong folder is hours of runs.
      if (logged > 0)
        progress(
          `--fresh: removed the ${logged} ${logged === 1 ? "run" : "runs"} logged in ${answersFile}, and its tables`,
        );
    },
    finish: (result) => manifest?.finish(result),
    manifest: () => manifest?.current(),
    close: release,
  };
}
