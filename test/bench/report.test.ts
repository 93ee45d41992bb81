// The bench rewrites only its own part of BENCHMARKS.md: the prose around the markers stays as written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { BENCH_BEGIN, BENCH_END, replaceGenerated } from "../../scripts/bench/report.ts";

const generated = (figure: string) => `${BENCH_BEGIN}\n- Figure: ${figure}\n${BENCH_END}`;

test("the generated part is replaced and the prose before and after it is kept", () => {
  const doc = `# Benchmarks\n\nIntro.\n\n${generated("old")}\n\n## Reading the targets\n\nProse.\n`;
  assert.equal(
    replaceGenerated(doc, generated("new")),
    `# Benchmarks\n\nIntro.\n\n${generated("new")}\n\n## Reading the targets\n\nProse.\n`,
  );
});

test("a document without markers gets the generated part at its end", () => {
  assert.equal(replaceGenerated("# Benchmarks\n", generated("x")), `# Benchmarks\n\n${generated("x")}\n`);
});

test("BENCHMARKS.md has exactly one generated part, and the explanations outside it", () => {
  const doc = readFileSync(new URL("../../BENCHMARKS.md", import.meta.url), "utf8");
  assert.equal(doc.split(BENCH_BEGIN).length, 2);
  assert.equal(doc.split(BENCH_END).length, 2);
  const outside = doc.slice(doc.indexOf(BENCH_END));
  assert.match(outside, /## Reading the targets/);
  assert.doesNotMatch(doc.slice(doc.indexOf(BENCH_BEGIN), doc.indexOf(BENCH_END)), /Why:/);
});
