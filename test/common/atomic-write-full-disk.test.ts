// A full disk while writing (a resume while it is still full): ENOSPC names no path, so the atomic writers name the
// file they were writing, as one line, instead of a stack trace.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import path from "node:path";
import { UserError, writeFileAtomic, writeFileAtomicAsync } from "../../src/common/index.ts";

function noSpace(syscall: string): Error {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), {
    code: "ENOSPC",
    errno: -28,
    syscall,
  });
}

test("a write that finds the disk full is a UserError naming the file, and leaves no temporary file", async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-full-"));
  const file = path.join(dir, "manifest.json");
  // the named imports of node:fs follow the module object only after syncBuiltinESMExports
  t.mock.method(fs, "writeFileSync", () => {
    throw noSpace("write");
  });
  t.mock.method(fs.promises, "writeFile", async () => {
    throw noSpace("write");
  });
  syncBuiltinESMExports();
  try {
    const expected = (e: unknown) =>
      e instanceof UserError &&
      e.message === `${file}: no space left on the device (ENOSPC, write); free some space, or choose another disk`;
    assert.throws(() => writeFileAtomic(file, "{}"), expected);
    await assert.rejects(writeFileAtomicAsync(file, "{}"), expected);
  } finally {
    t.mock.restoreAll();
    syncBuiltinESMExports();
  }
  assert.deepEqual(fs.readdirSync(dir), []);
});
