// Opens a run folder for analysis: its logged answers, its manifest, and the blog's slugs to score them with.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { loadCorpus } from "../corpus/index.ts";
import { UserError } from "../errors.ts";
import { ANSWERS_FILE, readAnswerLog, readManifest, type AnswerRecord, type RunManifest } from "../study/index.ts";
import type { TableContext } from "./tables.ts";

export const DEFAULT_CONTENT_DIR = "content/posts";

export interface RunFolder {
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

/**
 * `target` is a run folder or an answers.jsonl inside one. The slugs come from `content` when given, else from
 * the manifest (the posts the run actually searched), else from content/posts: scoring an old run against a blog
 * that has since gained posts would change its strict classes.
 */
export async function openRunFolder(target: string, content?: string): Promise<RunFolder> {
  if (!existsSync(target)) throw new UserError(`${target}: no such file or folder`);
  const isDir = statSync(target).isDirectory();
  const dir = isDir ? target : path.dirname(target);
  const answersFile = isDir ? path.join(target, ANSWERS_FILE) : target;
  if (!existsSync(answersFile)) throw new UserError(`${dir}: no ${ANSWERS_FILE} here (is this a run folder? see \`run --out\`)`);
  const { records } = readAnswerLog(answersFile);
  if (records.length === 0) throw new UserError(`${answersFile}: no answers logged yet`);
  const manifest = readManifest(dir);
  const questions = manifest?.questions.count ?? new Set(records.map((r) => r.question_id)).size;

  if (content === undefined && manifest) {
    return { dir, answersFile, records, manifest, slugs: manifest.corpus.posts, slugsFrom: `${path.join(dir, "manifest.json")}`, context: { sections: manifest.corpus.sections, questions } };
  }
  const corpus = await loadCorpus(content ?? DEFAULT_CONTENT_DIR);
  const slugs = corpus.posts.map((p) => p.slug);
  return { dir, answersFile, records, manifest, slugs, slugsFrom: corpus.dir, context: { sections: corpus.sections.length, questions } };
}
