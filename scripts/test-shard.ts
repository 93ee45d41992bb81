// One process of a test tier (scripts/test.ts): imports each file named in BLOGQA_TEST_FILES inside a suite of its
// own, so its tests run in this process, are reported under its name, and its hooks stay within it.
import { describe } from "node:test";
import path from "node:path";
import { pathToFileURL } from "node:url";

const files = (process.env.BLOGQA_TEST_FILES ?? "").split("\n").filter(Boolean);
let everyFileLoaded!: () => void;
const loadingDone = new Promise<void>((resolve) => (everyFileLoaded = resolve));

// subtle: a suite's function starts as it is declared. Declared all at once, every file was imported at once, and a
// file whose imports waited on a module another file was still loading ran in that file's context: its tests landed
// in no suite. So each suite is declared once the file before it has loaded, and no suite runs a test before every
// file has loaded: a file's loading (listeners its helpers add) never happens during another file's tests. Not by
// a top-level await: while the entry module waits, Node keeps an `exit` listener of its own.
void (async () => {
  for (const file of files) {
    let loaded!: () => void;
    const imported = new Promise<void>((resolve) => (loaded = resolve));
    describe(file, async () => {
      try {
        await import(pathToFileURL(path.resolve(file)).href);
      } finally {
        loaded();
      }
      await loadingDone;
    });
    await imported;
  }
  everyFileLoaded();
})();
