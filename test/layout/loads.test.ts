// Each stage loads what it uses: importing scoring, report or the command line (its options, every command's
// definition) must not load a native or heavy package at load; those load through their one lazy door when they run.
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

/** Modules that must stay light, relative to src/. */
const LIGHT = ["scoring/index.ts", "report/index.ts", "commands/options.ts", "commands/index.ts"];

test("importing scoring, report, the commands' options or the command line loads no native or heavy package", () => {
  const targets = LIGHT.map((file) => pathToFileURL(path.join(root, "src", file)).href);
  const out = execFileSync(process.execPath, ["--import", "tsx", "test/helpers/load-probe.ts", ...targets], {
    cwd: root,
    encoding: "utf8",
  });
  const report = JSON.parse(out) as Record<string, string[]>;
  assert.deepEqual(Object.keys(report), targets, "the probe imported every module");
  const problems = LIGHT.flatMap((file, i) =>
    report[targets[i]!]!.filter((p) => HEAVY.some((h) => h.test(p))).map((p) => `src/${file} loads ${p}`),
  );
  assert.deepEqual(problems, []);
});

test("the probe sees a heavy package loaded at import, so the test above can fail", () => {
  const target = pathToFileURL(path.join(root, "src/corpus/mdx-toolchain.ts")).href;
  const probe = `import { mdxParsers } from ${JSON.stringify(target)}; mdxParsers();`;
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", "test/helpers/load-probe.ts", `data:text/javascript,${encodeURIComponent(probe)}`],
    { cwd: root, encoding: "utf8" },
  );
  const [loaded] = Object.values(JSON.parse(out) as Record<string, string[]>);
  assert.ok(loaded!.includes("unified") && loaded!.includes("remark-mdx"), loaded!.join(", "));
});
