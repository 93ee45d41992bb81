// Reads a text file line by line in fixed-size chunks, so that a file larger than a string can hold is still read.
import { closeSync, openSync, readSync } from "node:fs";

/** Where a file's complete lines end, and whether bytes without a final newline follow them. */
export interface LinesRead {
  /** Bytes of complete lines (each ended by "\n"). */
  readonly completeBytes: number;
  /** Complete lines seen. */
  readonly lines: number;
  /** Bytes after the last newline: a line torn by an interrupted write, never handed to `onLine`. */
  readonly tornBytes: number;
}

/**
 * Calls `onLine(text, n)` for each complete line (1-based n, without its "\n"). A complete line longer than
 * `maxLineBytes` calls `onTooLong(n)` instead, which is expected to throw: its text is never held whole. A torn
 * tail is only measured, whatever its length.
 */
export function readLines(
  file: string,
  limits: { readonly maxLineBytes: number; readonly chunkBytes?: number },
  onLine: (text: string, n: number) => void,
  onTooLong: (n: number) => void,
): LinesRead {
  const fd = openSync(file, "r");
  const chunk = Buffer.alloc(limits.chunkBytes ?? 1 << 20);
  let pieces: Buffer[] = [];
  let pending = 0;
  let completeBytes = 0;
  let lines = 0;
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a, start); nl !== -1 && nl < read; nl = chunk.indexOf(0x0a, start)) {
        lines++;
        pending += nl - start;
        if (pending > limits.maxLineBytes) onTooLong(lines);
        else onLine(Buffer.concat([...pieces, chunk.subarray(start, nl)]).toString("utf8"), lines);
        completeBytes += pending + 1;
        pieces = [];
        pending = 0;
        start = nl + 1;
      }
      pending += read - start;
      // Past the limit the line's bytes are only counted: it cannot be handed on, whether it ends or is torn.
      if (pending <= limits.maxLineBytes) pieces.push(Buffer.from(chunk.subarray(start, read)));
      else pieces = [];
    }
  } finally {
    closeSync(fd);
  }
  return { completeBytes, lines, tornBytes: pending };
}
