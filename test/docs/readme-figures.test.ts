// The figures README.md states match their sources, and every relative link in the docs names a file that exists.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const read = (file: string): string => readFileSync(path.join(repoRoot, file), "utf8");

/** Pages other work adds; linked from the README before they land. */
const PAGES_TO_COME = new Set<string>([]);

/** The table rows (lines starting with `|`) of the first table after the line `after`. */
function tableAfter(text: string, after: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(after));
  assert.ok(start >= 0, `a line starting ${JSON.stringify(after)}`);
  const first = lines.findIndex((l, i) => i > start && l.startsWith("|"));
  const end = lines.findIndex((l, i) => i > first && !l.startsWith("|"));
  return lines.slice(first, end);
}

test("the README's table of the study's 3B results is the study's own, as docs/the-study.md prints it", () => {
  const readme = tableAfter(read("README.md"), "badly. The workflow won. The study's first table for the 3B");
  const study = tableAfter(read("docs/the-study.md"), "Qwen2.5-3B-Instruct, greedy");
  assert.deepEqual(readme, study);
});

test("the cache-reuse speed-up the README and docs/models.md state is BENCHMARKS.md's, with its date and command", () => {
  const bench = read("BENCHMARKS.md");
  const speedup = bench.match(/^\| cache-reuse \|(?:[^|]*\|){8} ([\d.]+x) \|/m)?.[1];
  const date = bench.match(/^- Date: (\S+)$/m)?.[1];
  const command = bench.match(/^- Command: (`[^`]+`)$/m)?.[1];
  assert.ok(speedup && date && command, "BENCHMARKS.md has a cache-reuse row, a date and a command");
  const readme = read("README.md").replace(/\s+/g, " ");
  assert.ok(readme.includes(`KV-cache reuse ran the study's slice ${speedup} faster`), `README.md states ${speedup}`);
  assert.ok(readme.includes(`(${command}, ${date})`), `README.md dates it ${date}, by ${command}`);
  const models = read("docs/models.md").replace(/\s+/g, " ");
  assert.ok(models.includes(`study's slice ${speedup} faster`), `docs/models.md states ${speedup}`);
});

test("the README stays short and shows the commands the checks need", () => {
  const readme = read("README.md");
  assert.ok(readme.split("\n").length <= 200, `README.md has ${readme.split("\n").length} lines, at most 200`);
  for (const command of ["npm install", "npm run experiment", "npm run experiment -- --quant q8_0", "npm test"])
    assert.ok(readme.includes(command), `README.md shows ${command}`);
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(file: string): Set<string> {
  const text = read(file).replace(/^```[\s\S]*?^```/gm, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!.trim())));
}

test("every relative link in README.md, CONTRIBUTING.md and docs/*.md names a file (and heading) that exists", () => {
  const pages = [
    "README.md",
    "CONTRIBUTING.md",
    ...readdirSync(path.join(repoRoot, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const problems: string[] = [];
  for (const page of pages) {
    const text = read(page).replace(/^```[\s\S]*?^```/gm, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [file, hash] = target!.split("#") as [string, string | undefined];
      const resolved = file === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      if (PAGES_TO_COME.has(path.posix.basename(resolved))) continue;
      if (!existsSync(path.join(repoRoot, resolved))) problems.push(`${page}: ${target} (no ${resolved})`);
      else if (hash !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(hash))
        problems.push(`${page}: ${target} (no heading #${hash} in ${resolved})`);
    }
  }
  assert.deepEqual(problems, []);
});
