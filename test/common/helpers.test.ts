// The small shared helpers: atomic writes leave no temporary file behind, sha256 matches known vectors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  commonPrefixLength,
  sha256File,
  sha256Hex,
  writeFileAtomic,
  writeFileAtomicAsync,
  writeThroughTemp,
} from "../../src/common/index.ts";

// FIPS 180-2's "abc" vector.
const SHA_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

test("atomic writes create the folder, replace the file whole, and leave no temporary file", async () => {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "blogqa-atomic-")), "nested");
  const file = path.join(dir, "a.json");
  writeFileAtomic(file, "one");
  writeFileAtomic(file, "two");
  await writeFileAtomicAsync(path.join(dir, "b.bin"), new Uint8Array([1, 2, 3]));
  assert.equal(readFileSync(file, "utf8"), "two");
  const written = writeThroughTemp(path.join(dir, "c.txt"), (temp) => {
    writeFileSync(temp, "abc");
    return 3;
  });
  assert.equal(written, 3);
  assert.throws(
    () =>
      writeThroughTemp(path.join(dir, "d.txt"), () => {
        throw new Error("writer failed");
      }),
    /writer failed/,
  );
  assert.deepEqual(readdirSync(dir).sort(), ["a.json", "b.bin", "c.txt"]);
});

test("sha256 of bytes, text and a streamed file agree with the known vector", async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "blogqa-sha-")), "abc");
  writeFileSync(file, "abc");
  assert.equal(sha256Hex("abc"), SHA_ABC);
  assert.equal(sha256Hex(new TextEncoder().encode("abc")), SHA_ABC);
  assert.equal(await sha256File(file), SHA_ABC);
});

test("common prefix length of token lists and of strings", () => {
  assert.equal(commonPrefixLength([1, 2, 3, 4], [1, 2, 9]), 2);
  assert.equal(commonPrefixLength([1, 2], [1, 2, 3]), 2);
  assert.equal(commonPrefixLength([], [1]), 0);
  assert.equal(commonPrefixLength("Source: kv", "Source: rope"), 8);
});
