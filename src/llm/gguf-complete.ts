// Whether a GGUF file holds all the bytes its header describes: a download cut short still reads as a GGUF whose
// metadata runs past the end of the file, or whose last tensors are missing.
import fs from "node:fs";
import { UserError } from "../common/index.ts";
import type { GgufFileInfo } from "node-llama-cpp";

/** Bytes per block and values per block of the ggml types the study's quants use (ggml's type_traits). */
const BLOCKS: Readonly<Record<number, readonly [bytes: number, values: number]>> = {
  0: [4, 1], // F32
  1: [2, 1], // F16
  2: [18, 32], // Q4_0
  3: [20, 32], // Q4_1
  6: [22, 32], // Q5_0
  7: [24, 32], // Q5_1
  8: [34, 32], // Q8_0
  10: [84, 256], // Q2_K
  11: [110, 256], // Q3_K
  12: [144, 256], // Q4_K
  13: [176, 256], // Q5_K
  14: [210, 256], // Q6_K
  30: [2, 1], // BF16
};

/**
 * The UserError for a model file shorter than its header says, or undefined. Each part of a split model must hold
 * its metadata and every tensor placed in it; a tensor of a type not listed counts as one byte, a lower bound.
 */
export function truncatedGguf(
  info: Pick<GgufFileInfo, "metadataSize" | "tensorInfoSize" | "fullTensorInfo" | "tensorInfo">,
  parts: readonly string[],
): UserError | undefined {
  const needed = parts.map(() => 0);
  needed[0] = info.metadataSize + (info.tensorInfoSize ?? 0);
  for (const tensor of info.fullTensorInfo ?? info.tensorInfo ?? []) {
    const part = tensor.filePart - 1;
    if (part < 0 || part >= parts.length) continue;
    const values = tensor.dimensions.reduce<number>((n, d) => n * Number(d), 1);
    const [bytes, per] = BLOCKS[tensor.ggmlType] ?? [0, 1];
    const end = Number(tensor.fileOffset) + Math.max(1, Math.ceil(values / per) * bytes);
    needed[part] = Math.max(needed[part]!, end);
  }
  for (const [i, file] of parts.entries()) {
    const size = fs.statSync(file).size;
    if (size < needed[i]!)
      return new UserError(
        `${file} is truncated or not a GGUF file: it is ${size} bytes, and its header describes at least ` +
          `${needed[i]}; download it again or check the --model path`,
      );
  }
  return undefined;
}
