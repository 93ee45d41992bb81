// Each stage loads what it uses: importing scoring, report or the command line (its options, every command's
// definition) must not load a native or heavy package at load, nor the agent loop; those load through their one
// lazy door when they run. A command's options read only the stages' data (designs, runs/data.ts), never the runner.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "../..");

/** Packages a module may load only when it runs: native code, the model and embedder stacks, the MDX toolchain. */
const HEAVY = [
  /^node-llama-cpp$/,
  /^@node-llama-cpp\//,
  /^@huggingface\//,
  /^onnxruntime-/,
  /^onnx-proto$/,
  /^protobufjs$/,
  /^unified$/,
  /^remark-/,
  /^micromark/,
  /^mdast-/,
  /^gray-matter$/,
];

/** The design runners: the registry's data reaches them only through run-design.ts's door, when a run starts. */
const RUNNERS = ["src/designs/agent-loop.ts", "src/designs/runners.ts"];

/**
 * Modules that must stay light, relative to src/, and the files of src/ each must not load besides RUNNERS. The
 * probe names a file under the first module that loads it, so the options come first: their list is all they load.
 */
const LIGHT: readonly (readonly [string, readonly string[]])[] = [
  ["commands/options.ts", ["src/runs/runner.ts", "src/runs/audit.ts", "src/runs/judge-runs.ts"]],
  ["scoring/index.ts", []],
  ["report/index.ts", []],
  ["commands/index.ts", []],
];

/** What the probe reports each module (a module URL, or a data: URL of code) loaded that those before it had not. */
function probe(targets: readonly string[]): Record<string, string[]> {
  const out = execFileSync(process.execPath, ["--import", "tsx", "test/helpers/load-probe.ts", ...targets], {
    cwd: root,
    encoding: "utf8",
  });
  const report = JSON.parse(out) as Record<string, string[]>;
  assert.deepEqual(Object.keys(report), targets, "the probe imported every module");
  return report;
}

test("importing scoring, report, the commands' options or the command line loads no heavy package nor runner", () => {
  const targets = LIGHT.map(([file]) => pathToFileURL(path.join(root, "src", file)).href);
  const report = probe(targets);
  const problems = LIGHT.flatMap(([file, own], i) =>
    report[targets[i]!]!.filter((p) => HEAVY.some((h) => h.test(p)) || RUNNERS.includes(p) || own.includes(p)).map(
      (p) => `src/${file} loads ${p}`,
    ),
  );
  assert.deepEqual(problems, []);
});

test("the probe names the files of src/ a module loads, so the runner check above can fail", () => {
  const runners = pathToFileURL(path.join(root, "src/designs/runners.ts")).href;
  const study = pathToFileURL(path.join(root, "src/runs/index.ts")).href;
  const report = probe([runners, study]);
  assert.ok(report[runners]!.includes("src/designs/agent-loop.ts"), report[runners]!.join(", "));
  assert.ok(report[study]!.includes("src/runs/runner.ts"), report[study]!.join(", "));
});

test("the probe sees a heavy package loaded at import, so the test above can fail", () => {
  const target = pathToFileURL(path.join(root, "src/corpus/mdx-toolchain.ts")).href;
  const code = `import { mdxParsers } from ${JSON.stringify(target)}; mdxParsers();`;
  const [loaded] = Object.values(probe([`data:text/javascript,${encodeURIComponent(code)}`]));
  assert.ok(loaded!.includes("unified") && loaded!.includes("remark-mdx"), loaded!.join(", "));
});
