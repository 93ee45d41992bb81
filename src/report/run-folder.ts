// Reads a run folder for analysis: its logged answers, its manifest, and the blog's slugs to score them with.
import path from "node:path";
import { loadCorpus } from "../corpus/index.ts";
import { UserError } from "../common/index.ts";
import { leftOutNote, splitFailed } from "../scoring/index.ts";
import {
  locateAnswerLog,
  readAnswerLog,
  readManifest,
  tornLineNotice,
  type AnswerRecord,
  type RunManifest,
} from "../runs/index.ts";
import type { TableContext } from "./tables.ts";

export const DEFAULT_CONTENT_DIR = "content/posts";

export interface ReadRun {
  readonly dir: string;
  readonly answersFile: string;
  readonly records: readonly AnswerRecord[];
  readonly manifest: RunManifest | undefined;
  /** The blog's slugs, which the strict scorer looks for in source lines. */
  readonly slugs: readonly string[];
  /** Where the slugs came from, for the reader: a content folder or the manifest. */
  readonly slugsFrom: string;
  readonly context: TableContext;
}

export interface ReadRunOptions {
  /** A blog folder to take the slugs from instead of the manifest's list. */
  readonly content?: string | undefined;
  /** Accept a `content` whose bytes differ from the blog the manifest records. */
  readonly force?: boolean | undefined;
  /** Where a notice goes (a torn last line, runs left out because their call failed); default stderr. */
  readonly onNotice?: ((line: string) => void) | undefined;
}

/** A run folder's checked log (see readAnswerLog), for the commands that read one: a missing or empty log is an error. */
export function readRunLog(
  target: string,
  options: Pick<ReadRunOptions, "onNotice"> = {},
): { dir: string; answersFile: string; records: readonly AnswerRecord[] } {
  const { dir, file } = locateAnswerLog(target);
  const log = readAnswerLog(file);
  const notice = tornLineNotice(file, log);
  if (notice !== undefined) (options.onNotice ?? console.error)(notice);
  if (log.records.length === 0) throw new UserError(`${file}: no answers logged yet`);
  return { dir, answersFile: file, records: log.records };
}

/**
 * `target` is a run folder or an answers.jsonl inside one. The slugs come from `content` when given, else from the
 * manifest (the posts the run actually searched), else from content/posts. Scoring a run against another blog would
 * count every right citation of the run's own posts as invented, so a `content` whose corpus hash differs from the
 * manifest's is refused unless `force`.
 */
export async function readRunFolder(target: string, options: ReadRunOptions = {}): Promise<ReadRun> {
  const { content, force = false } = options;
  const { dir, answersFile, records } = readRunLog(target, options);
  const leftOut = leftOutNote(splitFailed(records).failed);
  if (leftOut !== undefined) (options.onNotice ?? console.error)(`${answersFile}: ${leftOut}`);
  const manifest = readManifest(dir);

  if (content === undefined && manifest) {
    return {
      dir,
      answersFile,
      records,
      manifest,
      slugs: manifest.corpus.posts,
      slugsFrom: `${path.join(dir, "manifest.json")}`,
      context: { sections: manifest.corpus.sections },
    };
  }
  const corpus = await loadCorpus(content ?? DEFAULT_CONTENT_DIR);
  if (manifest && corpus.hash !== manifest.corpus.sha256 && !force) {
    throw new UserError(
      `${corpus.dir} is not the blog this run searched: ${path.join(dir, "manifest.json")} records ${manifest.corpus.dir} ` +
        `(corpus sha256 ${manifest.corpus.sha256.slice(0, 12)}, this folder's ${corpus.hash.slice(0, 12)}). ` +
        "Leave out --content to score against the run's own posts, or add --force to score against these.",
    );
  }
  const slugs = corpus.posts.map((p) => p.slug);
  return {
    dir,
    answersFile,
    records,
    manifest,
    slugs,
    slugsFrom: corpus.dir,
    context: { sections: corpus.sections.length },
  };
}
