// Reads a run folder for analysis: its logged answers, its manifest, and the blog's slugs to score them with.
import path from "node:path";
import { UserError } from "../common/index.ts";
import { leftOutNote, splitFailed } from "../scoring/index.ts";
import {
  goldPostsOf,
  locateAnswerLog,
  MANIFEST_FILE,
  readAnswerLog,
  progressNotice,
  readManifest,
  runInProgress,
  tornLineNotice,
  type AnswerRecord,
  type RunManifest,
  type RunProgress,
  openRunInputs,
} from "../runs/index.ts";
import { checkLogAgainstManifest } from "./manifest-lines.ts";
import type { TableContext } from "./tables.ts";

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
  /** Set while another process holds the folder's lock with runs of its plan left: every table is partial. */
  readonly progress: RunProgress | undefined;
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
): { dir: string; answersFile: string; records: readonly AnswerRecord[]; lineNumbers: readonly number[] } {
  const { dir, file } = locateAnswerLog(target);
  const log = readAnswerLog(file);
  const notice = tornLineNotice(file, log);
  if (notice !== undefined) (options.onNotice ?? console.error)(notice);
  if (log.records.length === 0) throw new UserError(`${file}: no answers logged yet`);
  return { dir, answersFile: file, records: log.records, lineNumbers: log.lineNumbers };
}

/**
 * `target` is a run folder or an answers.jsonl inside one. The slugs come from `content` when given, else from the
 * manifest (the posts the run actually searched); a folder with neither is refused, since any other blog would
 * count every right citation of the run's own posts as invented. For the same reason a `content` whose corpus hash
 * differs from the manifest's is refused unless `force`, a line the manifest's run could not have written (see
 * checkLogAgainstManifest) is refused, and so is a line whose gold post is not a post of the blog scored against
 * (with `force`, a notice).
 */
export async function readRunFolder(target: string, options: ReadRunOptions = {}): Promise<ReadRun> {
  const { content, force = false } = options;
  const { dir, answersFile, records, lineNumbers } = readRunLog(target, options);
  const manifest = readManifest(dir);
  const manifestFile = path.join(dir, MANIFEST_FILE);
  const at = (i: number) => `${answersFile}:${lineNumbers[i]}`;
  if (manifest) checkLogAgainstManifest(manifest, manifestFile, records, at);
  const blog = await blogToScore(dir, manifest, manifestFile, content, force);
  const unknownGold = unknownGoldPost(records, blog.slugs, blog.slugsFrom, at);
  if (unknownGold !== undefined && !force) throw new UserError(unknownGold);
  // --force scores against a blog on purpose: say what it costs, once.
  if (unknownGold !== undefined) (options.onNotice ?? console.error)(`${unknownGold}; --force scores it anyway`);
  const leftOut = leftOutNote(splitFailed(records).failed);
  if (leftOut !== undefined) (options.onNotice ?? console.error)(`${answersFile}: ${leftOut}`);
  const progress = runInProgress(dir, manifest, records);
  if (progress !== undefined) (options.onNotice ?? console.error)(`${dir}: ${progressNotice(progress)}`);
  return { dir, answersFile, records, manifest, ...blog, progress };
}

/** The slugs to score with, where they came from, and the blog's section count for the headers. */
async function blogToScore(
  dir: string,
  manifest: RunManifest | undefined,
  manifestFile: string,
  content: string | undefined,
  force: boolean,
): Promise<Pick<ReadRun, "slugs" | "slugsFrom" | "context">> {
  if (content === undefined) {
    if (!manifest)
      throw new UserError(
        `${dir} has no manifest.json, so the blog this run searched is unknown (scoring against another blog ` +
          "would count every right citation as invented): name it with --content DIR",
      );
    return {
      slugs: manifest.corpus.posts,
      slugsFrom: manifestFile,
      context: { sections: manifest.corpus.sections },
    };
  }
  const { corpus } = await openRunInputs({ manifest }, { content });
  if (manifest && corpus.hash !== manifest.corpus.sha256 && !force) {
    throw new UserError(
      `${corpus.dir} is not the blog this run searched: ${manifestFile} records ${manifest.corpus.dir} ` +
        `(corpus sha256 ${manifest.corpus.sha256.slice(0, 12)}, this folder's ${corpus.hash.slice(0, 12)}). ` +
        "Leave out --content to score against the run's own posts, or add --force to score against these.",
    );
  }
  return {
    slugs: corpus.posts.map((p) => p.slug),
    slugsFrom: corpus.dir,
    context: { sections: corpus.sections.length },
  };
}

/** The first line whose gold post is not a post of the blog scored against: no answer to it could score. */
function unknownGoldPost(
  records: readonly AnswerRecord[],
  slugs: readonly string[],
  slugsFrom: string,
  at: (i: number) => string,
): string | undefined {
  const known = new Set(slugs);
  for (const [i, r] of records.entries()) {
    const missing = goldPostsOf(r).find((post) => !known.has(post));
    if (missing !== undefined)
      return (
        `${at(i)}: gold post ${missing} is not a post of the blog in ${slugsFrom} ` +
        "(is this log scored against the blog it was run on?)"
      );
  }
  return undefined;
}
