// Temporary folders a test file makes, all removed once its tests are done (or once the one test that made it is).
import { after } from "node:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A function that makes a new folder named after `prefix` and a label; every one is removed after the file's tests. */
export function tempFolders(prefix: string): (label: string) => string {
  const folders: string[] = [];
  after(() => {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });
  return (label) => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-${label}-`));
    folders.push(folder);
    return folder;
  };
}

/** A temp folder holding `files` (paths inside it, `/` separated), removed after the test `t`. */
export function tempFileTree(t: { after: (fn: () => void) => void }, files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-files-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), body);
  }
  return dir;
}
