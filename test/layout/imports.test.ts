// The layout CONTRIBUTING.md promises: data flows one way through the stages, and a folder is entered by its index.ts
// (or, where it has one, by its data.ts: its records and registries alone, for the command line's options).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const src = path.resolve(import.meta.dirname, "../../src");

/** Each folder and the folders it may import (through their index.ts or data.ts); the stages in their order. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  common: [],
  python: [],
  corpus: ["common", "python"],
  search: ["common", "python", "corpus"],
  llm: ["common", "python"],
  toolcalls: ["common", "python", "llm"],
  designs: ["common", "python", "corpus", "search", "llm", "toolcalls"],
  runs: ["common", "python", "corpus", "search", "llm", "toolcalls", "designs"],
  scoring: ["common", "python", "corpus", "toolcalls", "designs", "runs"],
  report: ["common", "python", "corpus", "designs", "runs", "scoring"],
  "test-models": ["common", "python", "llm"],
  commands: [
    "common",
    "python",
    "corpus",
    "search",
    "llm",
    "toolcalls",
    "designs",
    "runs",
    "scoring",
    "report",
    "test-models",
  ],
};

/** A folder's doors: index.ts, and data.ts where loading the whole folder would load what runs. */
const DOORS = ["index.ts", "data.ts"];

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (entry.name.endsWith(".ts")) yield full;
  }
}

/** Every relative import of a file, resolved: [the folder under src/ it lands in, the path inside src/]. */
function imports(file: string): { folder: string; target: string }[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => {
    const target = path.relative(src, path.resolve(path.dirname(file), m[1]!));
    return { folder: target.split(path.sep)[0]!, target };
  });
}

test("each folder imports only the folders before it, and another folder only through its index.ts", () => {
  const problems: string[] = [];
  for (const folder of Object.keys(MAY_IMPORT)) {
    for (const file of sourceFiles(path.join(src, folder))) {
      for (const { folder: other, target } of imports(file)) {
        if (other === folder || !(other in MAY_IMPORT)) continue;
        const name = path.relative(src, file);
        if (!MAY_IMPORT[folder]!.includes(other))
          problems.push(`${name} imports ${target}: ${folder} may not use ${other}`);
        else if (!DOORS.some((door) => target === path.join(other, door)))
          problems.push(`${name} imports ${target}, not ${other}/index.ts or ${other}/data.ts`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("every folder under src/ has an index.ts that opens by saying what it offers", () => {
  for (const folder of Object.keys(MAY_IMPORT)) {
    const first = readFileSync(path.join(src, folder, "index.ts"), "utf8").split("\n")[0]!;
    assert.match(first, /^\/\/ /, `${folder}/index.ts opens with a comment`);
  }
  const folders = readdirSync(src, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  assert.deepEqual(folders.sort(), Object.keys(MAY_IMPORT).sort(), "the rule above names every folder");
});
