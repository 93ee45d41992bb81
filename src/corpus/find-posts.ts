// Finds a blog's post files under a folder, as real blogs lay them out, and says which it left out and why.
import { readFile, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../common/index.ts";
import type { InputProblem, LeftOut } from "./types.ts";
import type { Dirent } from "node:fs";
import { sizeProblem } from "./post-budget.ts";

/** A post file: `name` relative to the content folder with `/` separators (what hashes and summaries show). */
export interface PostFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface FoundPosts {
  readonly files: readonly PostFile[];
  readonly leftOut: readonly LeftOut[];
  /** Files and folders that exist but cannot be read (permissions): errors, never silently skipped. */
  readonly problems: readonly InputProblem[];
}

const POST_FILE = /\.mdx?$/;

/** Why a markdown file is not a post by its name alone, or undefined. */
function reasonByName(name: string): string | undefined {
  if (name.startsWith("_")) return "a name starting with _ marks a partial or a list page";
  if (/^readme\.mdx?$/i.test(name)) return "a README, not a post";
  return undefined;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Whether `real` is the folder `root` or lies under it (both real paths, as realpath gives them). */
function within(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Walks `dir` and every folder under it, in byte order of name. Posts are `*.mdx` and `*.md` files; symlinks to
 * files and folders inside `dir` are followed. Not walked: names starting with `.` (`.git`, editor folders) and
 * `node_modules`. Left out with a reason: drafts are decided later, from the frontmatter; here, names starting with
 * `_`, READMEs, symlink loops and dangling symlinks, a symlink to a post already found (it would count one post
 * twice), and a symlink to a post or folder outside `dir`: a link to `/` would otherwise read the whole disk, and
 * what a blog is should not depend on what its links happen to reach.
 */
export async function findPosts(dir: string): Promise<FoundPosts> {
  const leftOut: LeftOut[] = [];
  const problems: InputProblem[] = [];
  const candidates: { name: string; file: string; real: string; link: boolean }[] = [];
  const root = await realpath(dir).catch(() => path.resolve(dir));

  const walk = async (relative: string, ancestors: ReadonlySet<string>): Promise<void> => {
    const folder = path.join(dir, relative);
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (relative === "" && (code(error) === "ENOENT" || code(error) === "ENOTDIR")) {
        throw new UserError(`${dir}: content folder not found (set it with --content DIR)`);
      }
      problems.push({ file: folder, message: `folder cannot be read (${code(error) ?? String(error)})` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const name = relative === "" ? entry.name : `${relative}/${entry.name}`;
      const file = path.join(dir, name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = await stat(file);
          isDir = target.isDirectory();
          isFile = target.isFile();
        } catch (error) {
          // A broken link to an image is none of the blog's business; one that may be a post or a folder is.
          if (!POST_FILE.test(entry.name) && path.extname(entry.name) !== "") continue;
          if (code(error) === "ELOOP") leftOut.push({ file: name, reason: "a symlink loop" });
          else if (code(error) === "ENOENT")
            leftOut.push({ file: name, reason: "a symlink to nothing (its target is missing)" });
          else problems.push({ file, message: `symlink cannot be followed (${code(error) ?? String(error)})` });
          continue;
        }
        if (isDir || (isFile && POST_FILE.test(entry.name))) {
          const real = await realpath(file);
          if (!within(root, real)) {
            leftOut.push({ file: name, reason: `a symlink to ${real}, outside the content folder: not followed` });
            continue;
          }
        }
      }
      if (isDir) {
        const real = await realpath(file);
        if (ancestors.has(real))
          leftOut.push({ file: name, reason: "a symlink loop (it leads back to a folder above it)" });
        else await walk(name, new Set([...ancestors, real]));
      } else if (isFile && POST_FILE.test(entry.name)) {
        const reason = reasonByName(entry.name);
        if (reason !== undefined) leftOut.push({ file: name, reason });
        else candidates.push({ name, file, real: await realpath(file), link: entry.isSymbolicLink() });
      }
    }
  };
  await walk("", new Set([root]));

  // A file reached twice (a symlink to a post that is also here) is read once: the real file wins over a link.
  const owner = new Map<string, string>();
  for (const c of [...candidates].sort((a, b) => Number(a.link) - Number(b.link))) {
    if (!owner.has(c.real)) owner.set(c.real, c.name);
  }
  const files: PostFile[] = [];
  for (const c of candidates) {
    const first = owner.get(c.real)!;
    if (first !== c.name) {
      leftOut.push({ file: c.name, reason: `the same file as ${first}` });
      continue;
    }
    try {
      // A post over the size limit is refused unread: a file of gigabytes would exhaust memory before any parser.
      const tooBig = sizeProblem(c.file, (await stat(c.file)).size);
      if (tooBig !== undefined) problems.push(tooBig);
      else files.push({ name: c.name, bytes: await readFile(c.file) });
    } catch (error) {
      problems.push({
        file: c.file,
        message: `post cannot be read (${code(error) ?? String(error)}): make it readable or move it out`,
      });
    }
  }
  leftOut.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files, leftOut, problems };
}
