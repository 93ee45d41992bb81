// sha256 of large files (model weights), streamed, and remembered by path + size + mtime so a 6 GB file is hashed once.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { sha256File, writeFileAtomic } from "../common/index.ts";

export const HASH_CACHE_FILE = "file-sha256.json";

/** The cache file's shape: absolute path -> what the file was when hashed. */
type HashCache = Record<string, { readonly bytes: number; readonly mtimeMs: number; readonly sha256: string }>;

export interface FileDigest {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  /** True when the hash came from the cache (the file's size and mtime were unchanged). */
  readonly cached: boolean;
}

/**
 * The file's sha256, from <cacheDir>/file-sha256.json when its size and mtime are the ones hashed before.
 * subtle: a rewrite that keeps both size and mtime would go unnoticed; model files are not edited in place.
 */
export async function cachedSha256(file: string, cacheDir: string): Promise<FileDigest> {
  const absolute = path.resolve(file);
  const stat = statSync(absolute);
  const cacheFile = path.join(cacheDir, HASH_CACHE_FILE);
  const known = readCache(cacheFile)[absolute];
  if (known && known.bytes === stat.size && known.mtimeMs === stat.mtimeMs)
    return { path: absolute, bytes: stat.size, sha256: known.sha256, cached: true };
  const sha256 = await sha256File(absolute);
  // Re-read before writing: another process may have added entries meanwhile.
  const cache = { ...readCache(cacheFile), [absolute]: { bytes: stat.size, mtimeMs: stat.mtimeMs, sha256 } };
  writeFileAtomic(cacheFile, `${JSON.stringify(cache, null, 1)}\n`); // a reader sees the old cache or the new one
  return { path: absolute, bytes: stat.size, sha256, cached: false };
}

function readCache(file: string): HashCache {
  try {
    const value: unknown = JSON.parse(readFileSync(file, "utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as HashCache) : {};
  } catch {
    return {}; // missing or unreadable: hash again, nothing is lost
  }
}
