// One process of the unit tier (scripts/test.ts): imports each file named in BLOGQA_TEST_FILES inside a suite of
// its own, so its tests run in this process, are reported under its name, and its hooks stay within it.
import { describe } from "node:test";
import path from "node:path";
import { pathToFileURL } from "node:url";

for (const file of (process.env.BLOGQA_TEST_FILES ?? "").split("\n").filter(Boolean))
  describe(file, async () => {
    await import(pathToFileURL(path.resolve(file)).href);
  });
