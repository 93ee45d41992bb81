// A generated GGUF kept beside its stamp: written again only when what its bytes depend on has changed.
import fs from "node:fs";
import { writeThroughTemp } from "../../common/index.ts";
import { currentStamp, writeStamp } from "../stamp.ts";
import { writeGguf, type GgufTensor, type GgufValue } from "./gguf-writer.ts";

/**
 * The model at `out` when its stamp (`out.stamp.json`) records `stamp` and its size; otherwise `build()`'s metadata
 * and tensors written there (through a temporary file), then the stamp with the size.
 */
export function ensureStampedGguf(
  out: string,
  stamp: object,
  build: () => { metadata: [string, GgufValue][]; tensors: GgufTensor[] },
): { readonly path: string; readonly reused: boolean } {
  const stampFile = `${out}.stamp.json`;
  const stored = currentStamp(stampFile, stamp, ["bytes"]);
  if (stored !== undefined && fs.existsSync(out) && fs.statSync(out).size === stored.bytes)
    return { path: out, reused: true };
  const { metadata, tensors } = build();
  fs.rmSync(stampFile, { force: true });
  const bytes = writeThroughTemp(out, (temp) => writeGguf(temp, metadata, tensors));
  writeStamp(stampFile, { ...stamp, bytes });
  return { path: out, reused: false };
}
