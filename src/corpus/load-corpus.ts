// Reads a blog's posts into a Corpus, reporting every bad post at once and saying what it left out.
import { createHash } from "node:crypto";
import path from "node:path";
import { UserError } from "../common/index.ts";
import type { Corpus, InputProblem, LeftOut, Post } from "./types.ts";
import { findPosts, type PostFile } from "./find-posts.ts";
import { type ParsedPost, type ParseOptions, SPLIT_DEPTH } from "./parse-post.ts";
import { PROSE_ATTRIBUTES } from "./attribute-prose.ts";
import { DEFAULT_SLUG_RULE, detectSiteLayout, type SlugRule } from "./site-layout.ts";
import { guardedParse } from "./post-budget.ts";
import { parsePostsCached } from "./parse-cache.ts";

/** "file:line: message" (or "file:line:column: message"), the shape editors and terminals turn into links. */
export function formatProblem(problem: InputProblem): string {
  const column = problem.line !== undefined && problem.column !== undefined ? `:${problem.column}` : "";
  return `${problem.file}${problem.line === undefined ? "" : `:${problem.line}`}${column}: ${problem.message}`;
}

/** One UserError naming every problem, so a user fixes them all in one pass. */
export function problemsError(what: string, problems: readonly InputProblem[]): UserError {
  const noun = problems.length === 1 ? "problem" : "problems";
  return new UserError(`${what}: ${problems.length} ${noun}\n${problems.map(formatProblem).join("\n")}`);
}

/**
 * sha256 over every file's name and bytes, files in sorted order. Each name and body is preceded by its length,
 * so no two different folders can produce the same stream of bytes. Prose attributes other than the default change
 * the sections, so they are hashed too, and so is a split depth other than the default (after the files: the default's hash is the files' alone, as it always was), and a slug rule other than the file name's.
 */
export function corpusHash(
  files: readonly { readonly name: string; readonly bytes: Uint8Array }[],
  proseAttributes: readonly string[] = PROSE_ATTRIBUTES,
  splitDepth: number = SPLIT_DEPTH,
  slugRule: SlugRule = DEFAULT_SLUG_RULE,
): string {
  const hash = createHash("sha256");
  const attributes = [...new Set(proseAttributes)].sort();
  if (attributes.join("\n") !== [...PROSE_ATTRIBUTES].sort().join("\n"))
    hash.update(`attributes ${JSON.stringify(attributes)}`);
  if (splitDepth !== SPLIT_DEPTH) hash.update(`split depth ${splitDepth}`);
  if (slugRule !== DEFAULT_SLUG_RULE) hash.update(`slug rule ${slugRule}`);
  for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const name = Buffer.from(file.name, "utf8");
    hash.update(`${name.length}:`).update(name).update(`${file.bytes.length}:`).update(file.bytes);
  }
  return hash.digest("hex");
}

/**
 * Answers cite slugs and the strict scorer finds them as substrings, so two posts with one slug, or a slug inside
 * another (`cache` and `kv-cache`), would miscount answers without a word: each is a problem naming both files.
 */
export function slugClashes(posts: readonly Post[]): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const a of posts) {
    for (const b of posts) {
      if (a === b) continue;
      const fix = "answers cite slugs: rename one file, or give one a frontmatter slug";
      if (a.slug === b.slug) {
        if (a.file < b.file)
          problems.push({ file: a.file, message: `slug "${a.slug}" is also the slug of ${b.file}; ${fix}` });
      } else if (b.slug.includes(a.slug)) {
        problems.push({
          file: a.file,
          message: `slug "${a.slug}" is inside slug "${b.slug}" of ${b.file}, so a citation of either would name both; ${fix}`,
        });
      }
    }
  }
  return problems;
}

type Found = { readonly leftOut?: readonly LeftOut[]; readonly problems?: readonly InputProblem[] };

/**
 * Builds the Corpus from files already read, parsing them here, without the worker's time and memory limits; pure,
 * so tests need no disk. `found` carries what the folder walk left out and could not read. Throws one UserError
 * listing every problem.
 * @internal
 */
export function corpusFromFiles(
  dir: string,
  files: readonly PostFile[],
  found: Found = {},
  options: ParseOptions = {},
): Corpus {
  const parsed = new Map(files.map((f) => [f.name, guardedParse(path.join(dir, f.name), f.bytes, options)]));
  return corpusFromParsed(dir, files, parsed, found, options);
}

/** The Corpus from files and what parsing each gave (by name); throws one UserError listing every problem. */
function corpusFromParsed(
  dir: string,
  files: readonly PostFile[],
  parsedFiles: ReadonlyMap<string, ParsedPost>,
  found: Found,
  options: ParseOptions,
): Corpus {
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const posts: Post[] = [];
  const read: PostFile[] = [];
  const leftOut: LeftOut[] = [...(found.leftOut ?? [])];
  const problems: InputProblem[] = [...(found.problems ?? [])];
  for (const file of sorted) {
    const parsed = parsedFiles.get(file.name)!;
    if (parsed.kind === "post") {
      posts.push(parsed.post);
      read.push(file);
    } else if (parsed.kind === "left-out") leftOut.push({ file: file.name, reason: parsed.reason });
    else problems.push(...parsed.problems);
  }
  problems.push(...slugClashes(posts));
  if (problems.length > 0) throw problemsError(`${dir}: cannot read the blog`, problems);
  if (posts.length === 0) {
    const why = leftOut.length === 0 ? "" : ` (${leftOut.length} left out: ${leftOut.map(describeLeftOut).join(", ")})`;
    const hint = "(point --content at the folder that holds them)";
    throw new UserError(`${dir}: no .mdx or .md posts in this folder or under it${why} ${hint}`);
  }
  leftOut.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const slugRule = options.slugRule ?? DEFAULT_SLUG_RULE;
  const hash = corpusHash(read, options.proseAttributes, options.splitDepth, slugRule);
  return { dir, posts, sections: posts.flatMap((post) => post.sections), hash, leftOut, slugRule };
}

/** "drafts/wip.mdx (draft: true)" */
export function describeLeftOut(item: LeftOut): string {
  return `${item.file} (${item.reason})`;
}

export interface LoadOptions extends ParseOptions {
  /** Told, in one line, what was left out and why; by default a `note:` line on stderr. Not called when nothing was. */
  readonly note?: (line: string) => void;
  /** A cache folder that keeps parsed posts between commands (parse-cache.ts); none by default. */
  readonly parseCacheDir?: string | undefined;
}

/**
 * Reads every post under `dir` (see find-posts.ts for what counts as one), in byte order of path, its slugs named
 * as the site the folder's layout shows publishes them (site-layout.ts) unless `options.slugRule` says, each parsed
 * in a worker within its budget (post-budget.ts) or read from the parse cache when one is given. What is left out is
 * said in one note, so no post goes missing without a word.
 */
export async function loadCorpus(dir: string, options: LoadOptions = {}): Promise<Corpus> {
  const found = await findPosts(dir);
  const slugRule = options.slugRule ?? (await detectSiteLayout(dir)).slugRule;
  const { note: givenNote, parseCacheDir, ...given } = options;
  const parseOptions = { ...given, slugRule };
  const parsed = await parsePostsCached(
    found.files.map((f) => ({ file: path.join(dir, f.name), bytes: f.bytes })),
    parseOptions,
    parseCacheDir,
  );
  const byName = new Map(found.files.map((f, i) => [f.name, parsed[i]!]));
  const corpus = corpusFromParsed(dir, found.files, byName, found, parseOptions);
  const note = givenNote ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (corpus.leftOut.length > 0) {
    const n = corpus.leftOut.length;
    const files = n === 1 ? "file" : "files";
    note(`note: ${dir}: left out ${n} ${files}: ${corpus.leftOut.map(describeLeftOut).join(", ")}`);
  }
  return corpus;
}
