// Temporary folders a test file makes, all removed once its tests are done.
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
