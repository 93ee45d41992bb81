// sha256 as hex: of bytes or text in memory, or of a file streamed from disk (model weights are gigabytes).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

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
