// Reads a folder of .mdx posts into a Corpus, reporting every bad post at once.
import { createHash } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import type { Corpus, InputProblem, Post } from "./types.ts";
import { parsePost } from "./parse-post.ts";

/** "file:line: message", the shape editors and terminals turn into links. */
export function formatProblem(problem: InputProblem): string {
  return `${problem.file}${problem.line === undefined ? "" : `:${problem.line}`}: ${problem.message}`;
}

/** One UserError naming every problem, so a user fixes them all in one pass. */
export function problemsError(what: string, problems: readonly InputProblem[]): UserError {
  const noun = problems.length === 1 ? "problem" : "problems";
  return new UserError(`${what}: ${problems.length} ${noun}\n${problems.map(formatProblem).join("\n")}`);
}

/**
 * sha256 over every file's name and bytes, files in sorted order. Each name and body is preceded by its length,
 * so no two different folders can produce the same stream of bytes.
 */
export function corpusHash(files: readonly { readonly name: string; readonly bytes: Uint8Array }[]): string {
  const hash = createHash("sha256");
  for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const name = Buffer.from(file.name, "utf8");
    hash.update(`${name.length}:`).update(name).update(`${file.bytes.length}:`).update(file.bytes);
  }
  return hash.digest("hex");
}

/** Builds the Corpus from files already read; pure, so tests need no disk. Throws one UserError listing every problem. */
export function corpusFromFiles(dir: string, files: readonly { readonly name: string; readonly bytes: Uint8Array }[]): Corpus {
  if (files.length === 0) throw new UserError(`${dir}: no .mdx posts in this folder (point --content at the folder that holds them)`);
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const posts: Post[] = [];
  const problems: InputProblem[] = [];
  for (const file of sorted) {
    const parsed = parsePost(path.join(dir, file.name), file.bytes);
    if (parsed.ok) posts.push(parsed.post);
    else problems.push(...parsed.problems);
  }
  if (problems.length > 0) throw problemsError(`${dir}: cannot read the blog`, problems);
  return { dir, posts, sections: posts.flatMap((post) => post.sections), hash: corpusHash(sorted) };
}

/** Reads every `*.mdx` directly inside `dir` (not subfolders), in byte order of file name. */
export async function loadCorpus(dir: string): Promise<Corpus> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith(".mdx")).map((e) => e.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new UserError(`${dir}: content folder not found (set it with --content DIR)`);
    throw error;
  }
  const files = await Promise.all(names.map(async (name) => ({ name, bytes: await readFile(path.join(dir, name)) })));
  return corpusFromFiles(dir, files);
}
