// sha256 as hex: of bytes or text in memory, of a file streamed from disk (model weights are gigabytes), or of a
// folder's files as a cache key.
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Streams the file through sha256 (never holds it in memory). */
export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file, { highWaterMark: 4 * 1024 * 1024 })
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

/**
 * A sha256 over `files` in `folder` (names, sizes and bytes, in the order given), short enough for a cache key: a
 * folder that changes in place (a model regenerated or re-downloaded, code rebuilt) gets a new fingerprint.
 */
export function filesFingerprint(folder: string, files: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of files) {
    const bytes = readFileSync(path.join(folder, file));
    hash.update(`${file}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return `sha256:${hash.digest("hex").slice(0, 32)}`;
}
