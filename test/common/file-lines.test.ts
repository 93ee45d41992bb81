// The chunked line reader: lines across chunk boundaries, a torn tail, and a line too long to be held.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readLines } from "../../src/common/file-lines.ts";

function file(text: string): string {
  const f = path.join(mkdtempSync(path.join(tmpdir(), "blogqa-lines-")), "log.jsonl");
  writeFileSync(f, text);
  return f;
}

function lines(text: string, maxLineBytes: number, chunkBytes: number) {
  const seen: string[] = [];
  const tooLong: number[] = [];
  const read = readLines(
    file(text),
    { maxLineBytes, chunkBytes },
    (t, n) => seen.push(`${n}:${t}`),
    (n) => {
      tooLong.push(n);
    },
  );
  return { seen, tooLong, read };
}

test("lines split across chunks of every size read back whole, a torn tail measured and not handed on", () => {
  const text = "alpha\n\nbéta gamma\ndelta\ntorn";
  for (const chunkBytes of [1, 2, 3, 5, 7, 64]) {
    const { seen, tooLong, read } = lines(text, 100, chunkBytes);
    assert.deepEqual(seen, ["1:alpha", "2:", "3:béta gamma", "4:delta"], `chunks of ${chunkBytes}`);
    assert.deepEqual(tooLong, []);
    assert.deepEqual(read, { completeBytes: Buffer.byteLength(text) - 4, lines: 4, tornBytes: 4 });
  }
});

test("a line over the limit is reported by number and its text never assembled; a long torn tail is only measured", () => {
  const text = `short\n${"x".repeat(50)}\nok\n${"y".repeat(40)}`;
  for (const chunkBytes of [3, 16, 1024]) {
    const { seen, tooLong, read } = lines(text, 10, chunkBytes);
    assert.deepEqual(seen, ["1:short", "3:ok"]);
    assert.deepEqual(tooLong, [2]);
    assert.deepEqual(read, { completeBytes: 6 + 51 + 3, lines: 3, tornBytes: 40 });
  }
});
