// Parsed posts kept on disk between commands. The MDX toolchain spends about a second of CPU on our 25 posts, in
// every command that reads the blog; a command given a cache folder parses only what it has not parsed before.
// An entry is named by a hash of everything its parse depends on: the post's path and bytes, the parse options, and
// the parser itself (the code the parse worker runs, the installed packages, Node's version), so an edit to any of
// them misses and parses afresh. Only posts are kept: a refusal, a post left out and a post stopped by its budget
// are decided again each time. The cache is a shortcut and never an input: an entry that cannot be read or written
// is a miss, and no error of it reaches a command.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import { filesFingerprint, sha256Hex, writeFileAtomic } from "../common/index.ts";
import type { ParsedPost, ParseOptions } from "./parse-post.ts";
import { parsePostsInWorker, workerModule } from "./parse-pool.ts";

/** The folder under a cache folder that holds parsed posts (one file each). */
export const PARSED_POSTS_DIR = "parsed-posts";

export interface PostToParse {
  readonly file: string;
  readonly bytes: Uint8Array;
}

export interface ParseCache {
  /** The post parsed before with these options by this parser, or undefined. */
  read(post: PostToParse, options: ParseOptions): ParsedPost | undefined;
  /** Keeps a parse for the next command; only posts are kept. */
  write(post: PostToParse, options: ParseOptions, parsed: ParsedPost): void;
}

/** JSON with every object's keys in order, so two equal option records give one key however they were built. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The entry's name: sha256 over the parser, the options, the path and the bytes, each preceded by its length. */
export function entryName(parser: string, post: PostToParse, options: ParseOptions): string {
  const hash = createHash("sha256");
  for (const part of [Buffer.from(parser), Buffer.from(canonicalJson(options)), Buffer.from(post.file), post.bytes])
    hash.update(`${part.length}:`).update(part);
  return hash.digest("hex");
}

/**
 * The cache under `dir` for the parser `parser` names (hashParserCode). It never throws: a folder that cannot be
 * made, an entry that cannot be read or written, or one that is not a post, is a miss.
 */
export function parseCacheAt(dir: string, parser: string): ParseCache {
  const folder = path.join(dir, PARSED_POSTS_DIR);
  const entry = (post: PostToParse, options: ParseOptions) => path.join(folder, entryName(parser, post, options));
  return {
    read(post, options) {
      try {
        const parsed = deserialize(readFileSync(entry(post, options))) as ParsedPost;
        return parsed?.kind === "post" ? parsed : undefined;
      } catch {
        return undefined;
      }
    },
    write(post, options, parsed) {
      if (parsed.kind !== "post") return;
      try {
        // Atomic: a command reading at the same time sees the whole entry or none.
        writeFileAtomic(entry(post, options), serialize(parsed));
      } catch {
        // A cache that cannot be written is one that misses next time.
      }
    },
  };
}

/** Every file under `dir` whose name ends with `extension`, in sorted order, as paths relative to it. */
function filesUnder(dir: string, extension: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(extension))
    .sort();
}

/** npm's record of the packages installed beside the parser's own (node_modules/.package-lock.json). */
function installedPackages(): Buffer {
  const unified = createRequire(import.meta.url).resolve("unified");
  const marker = `${path.sep}node_modules${path.sep}`;
  const nodeModules = unified.slice(0, unified.lastIndexOf(marker) + marker.length);
  return readFileSync(path.join(nodeModules, ".package-lock.json"));
}

/**
 * What names the parser: a hash of the worker's code (every module of the bundle when it runs from one, every
 * TypeScript file under src/ when it runs from source), the installed packages and Node's version (its Unicode
 * tables decide what `\p{L}` matches). Undefined where any of them cannot be read (packages installed by another
 * tool than npm): then nothing is cached.
 */
export function hashParserCode(workerFile: string): string | undefined {
  try {
    const bundled = workerFile.endsWith(".mjs");
    const codeDir = path.resolve(path.dirname(workerFile), bundled ? "." : "..");
    const code = filesFingerprint(codeDir, filesUnder(codeDir, bundled ? ".mjs" : ".ts"));
    return sha256Hex(`${process.version}\n${code}\n${sha256Hex(installedPackages())}`);
  } catch {
    return undefined;
  }
}

/** hashParserCode once a process: its code is the code it loaded, and hashing the source's 1.2 MB takes 30 ms. */
const fingerprints = new Map<string, string | undefined>();

function parserFingerprint(workerFile: string): string | undefined {
  if (!fingerprints.has(workerFile)) fingerprints.set(workerFile, hashParserCode(workerFile));
  return fingerprints.get(workerFile);
}

/**
 * parsePostsInWorker, through the cache under `cacheDir` where one is given: the posts parsed before are read from
 * it, the rest parsed in the worker and kept. Results in the order of `files`.
 */
export async function parsePostsCached(
  files: readonly PostToParse[],
  options: ParseOptions,
  cacheDir: string | undefined,
): Promise<ParsedPost[]> {
  const parser = cacheDir === undefined ? undefined : parserFingerprint(fileURLToPath(workerModule()));
  if (cacheDir === undefined || parser === undefined) return parsePostsInWorker(files, options);
  const cache = parseCacheAt(cacheDir, parser);
  const kept = files.map((post) => cache.read(post, options));
  const missing = files.filter((_, i) => kept[i] === undefined);
  const parsed = missing.length === 0 ? [] : await parsePostsInWorker(missing, options);
  for (const [i, result] of parsed.entries()) cache.write(missing[i]!, options, result);
  let next = 0;
  return kept.map((hit) => hit ?? parsed[next++]!);
}
