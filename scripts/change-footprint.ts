// How many files each kind of change touches, measured rather than promised: on a scratch worktree of HEAD, makes a
// throwaway design, tool-call format and corpus setting (the smallest edits that compile and pass their stage's unit
// tests), regenerates the docs the code writes, and counts the files `git status` shows outside test/ and the
// generated docs. CONTRIBUTING.md's counts come from here.
//
//   npm run -s footprint                  all three changes, each with its stage's unit tests
//   npm run -s footprint -- --no-tests    compile only (faster)
//   npm run -s footprint -- --keep        leave the scratch worktrees (their paths are printed)
//   npm run -s footprint -- --only "a design"   the changes whose name starts so
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

/** One edit of a recipe, paths relative to the worktree's root; each anchor must occur exactly once. */
type Edit =
  | { readonly copy: string; readonly to: string; readonly rename: readonly (readonly [string, string])[] }
  | { readonly file: string; readonly replace: string; readonly with: string }
  | { readonly file: string; readonly afterLine: string; readonly lines: readonly string[] }
  /** The block from the line holding `block` to the next line that closes it at its indentation, repeated after itself. */
  | { readonly file: string; readonly block: string; readonly rename: readonly (readonly [string, string])[] }
  /** The line holding `line`, repeated after itself. */
  | { readonly file: string; readonly line: string; readonly rename: readonly (readonly [string, string])[] };

interface Recipe {
  readonly change: string;
  readonly edits: readonly Edit[];
  /** Folders of unit tests (their `*.test.ts`, not the integration tier's) run in the scratch worktree. */
  readonly tests: readonly string[];
}

/** The smallest real change of each kind: a design, a format and a corpus setting that work, each as CONTRIBUTING.md says. */
const RECIPES: readonly Recipe[] = [
  {
    change: "a design (the cite check on the 'always search first' agent)",
    edits: [
      {
        file: "src/designs/registry.ts",
        afterLine: '"agent-constrained": {',
        lines: [
          '  "agent-search-first-cite-checked": { label: "agent, search first, cite checked", mark: "SC", extends: "agent-search-first" },',
        ],
      },
      {
        file: "src/designs/engineered/designs.ts",
        replace: "/** The workflow, with the same check and repair. */",
        with: [
          "/** The 'always search first' agent, with the same check and repair. */",
          "export async function citeCheckedSearchFirstAgent(run: DesignRun): Promise<Transcript> {",
          '  const t = await runAgent({ ...run, design: "agent-search-first" });',
          "  return citeChecked(t, run.runtime, run.index, agentToolsFor(run.wording ?? DEFAULT_WORDING));",
          "}",
          "",
          "/** The workflow, with the same check and repair. */",
        ].join("\n"),
      },
      {
        file: "src/designs/runners.ts",
        replace: "citeCheckedAgent, ",
        with: "citeCheckedAgent, citeCheckedSearchFirstAgent, ",
      },
      {
        file: "src/designs/runners.ts",
        afterLine: '"agent-constrained": ',
        lines: ['  "agent-search-first-cite-checked": citeCheckedSearchFirstAgent,'],
      },
      // The --designs test lists the engineered group as it expects it.
      {
        file: "test/designs/design-naming.test.ts",
        afterLine: '    "agent-constrained",',
        lines: ['    "agent-search-first-cite-checked",'],
      },
      { file: "test/designs/design-naming.test.ts", replace: "both?.length, 8,", with: "both?.length, 9," },
      {
        file: "docs/designs.md",
        afterLine: "- `workflow-cite-checked`,",
        lines: [
          "- `agent-search-first-cite-checked`: the 'always search first' agent, then the same check and repair.",
        ],
      },
    ],
    tests: ["test/designs", "test/report"],
  },
  {
    change: "a tool-call format (phi4's, under another name, of its family)",
    edits: [
      {
        copy: "src/toolcalls/phi4.ts",
        to: "src/toolcalls/phi4-copy.ts",
        rename: [
          ['phi4: TextDialect<"phi4">', 'phi4Copy: TextDialect<"phi4-copy">'],
          // Phi-4's tags, so one family with phi4, as emulated is with hermes.
          ['format: "phi4",', 'format: "phi4-copy",\n  family: "phi4",'],
        ],
      },
      {
        file: "src/toolcalls/formats.ts",
        afterLine: 'import { phi4 } from "./phi4.ts";',
        lines: ['import { phi4Copy } from "./phi4-copy.ts";'],
      },
      { file: "src/toolcalls/formats.ts", replace: "phi4, emulated]", with: "phi4, phi4Copy, emulated]" },
      // The format's cases in the dialects' unit tests: the test's types ask for every format's.
      { file: "test/toolcalls/dialects.test.ts", block: "  phi4: [", rename: [["phi4:", '"phi4-copy":']] },
      { file: "test/toolcalls/dialects.test.ts", line: "    phi4: `[", rename: [["phi4:", '"phi4-copy":']] },
      // The families suite runs one model per format: the new one gets its model (here another file of Phi-4-mini's).
      {
        file: "src/runs/suites.ts",
        replace: '  {\n    id: "ministral-3-3b",',
        with: [
          "  {",
          '    id: "phi-4-mini-copy",',
          "    // The same repository's q8_0 (a suite runs each file once), https://huggingface.co/bartowski/microsoft_Phi-4-mini-instruct-GGUF",
          '    model: "hf:bartowski/microsoft_Phi-4-mini-instruct-GGUF/microsoft_Phi-4-mini-instruct-Q8_0.gguf",',
          "    paramsB: 3.84,",
          '    format: "phi4-copy",',
          '    found: "https://huggingface.co/bartowski/microsoft_Phi-4-mini-instruct-GGUF",',
          "    fileVerified: true,",
          '    weights: "q8_0, a third party\'s quantization",',
          "  },",
          "  {",
          '    id: "ministral-3-3b",',
        ].join("\n"),
      },
      {
        file: "docs/models.md",
        afterLine: "| Phi-4-mini | `phi4` |",
        lines: ["| (a copy) | `phi4-copy` | as `phi4` | | | | |"],
      },
    ],
    tests: ["test/toolcalls", "test/designs", "test/runs"],
  },
  {
    change: "a corpus setting (the JSX attributes read as prose, which the corpus already takes)",
    edits: [
      {
        file: "src/runs/settings.ts",
        replace: "  withhold: {\n",
        with: [
          '  "prose-attributes": {',
          '    input: "blog",',
          '    type: "string",',
          '    default: "text,caption,title,alt,label",',
          '    describe: "The JSX attributes whose string values are read as prose, comma-separated",',
          "  },",
          "  withhold: {",
          "",
        ].join("\n"),
      },
      { file: "src/runs/settings.ts", afterLine: "const LEFT_OUT_AT_DEFAULT = [", lines: ['  "prose-attributes",'] },
      {
        file: "src/runs/run-inputs.ts",
        afterLine: "    splitDepth: settings.splitDepth,",
        lines: ['    proseAttributes: settings.proseAttributes.split(","),'],
      },
    ],
    tests: ["test/runs", "test/cli", "test/corpus"],
  },
];

/** Files a change may touch without counting: tests and what `npm run docs:commands` / `npm run schemas` write. */
const NOT_COUNTED = [/^test\//, /^docs\/commands\.md$/, /^docs\/schemas\//];

const { values } = parseArgs({
  options: { "no-tests": { type: "boolean" }, keep: { type: "boolean" }, only: { type: "string" } },
});
const root = path.resolve(import.meta.dirname, "..");

function git(cwd: string, args: readonly string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" });
}

/** Where `anchor` is in `text`: exactly once, or the recipe no longer fits the code. */
function onlyPlace(text: string, anchor: string, file: string): number {
  const at = text.indexOf(anchor);
  if (at === -1 || text.indexOf(anchor, at + 1) !== -1) {
    throw new Error(`${file} holds "${anchor}" ${at === -1 ? "nowhere" : "more than once"}: the recipe is out of date`);
  }
  return at;
}

/** `text` with each pair's first string, which it holds exactly once, replaced by the second. */
function renamed(text: string, rename: readonly (readonly [string, string])[], where: string): string {
  let out = text;
  for (const [from, to] of rename) {
    const at = onlyPlace(out, from, where);
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return out;
}

function applyEdit(tree: string, edit: Edit): void {
  if ("copy" in edit) {
    writeFileSync(
      path.join(tree, edit.to),
      renamed(readFileSync(path.join(tree, edit.copy), "utf8"), edit.rename, edit.copy),
    );
    return;
  }
  const file = path.join(tree, edit.file);
  const text = readFileSync(file, "utf8");
  if ("block" in edit || "line" in edit) {
    const start = text.lastIndexOf("\n", onlyPlace(text, "block" in edit ? edit.block : edit.line, edit.file)) + 1;
    const indent = /^[ \t]*/.exec(text.slice(start))![0];
    const close = "block" in edit ? text.indexOf(`\n${indent}]`, start) + 1 : start;
    const end = text.indexOf("\n", close) + 1;
    const copy = renamed(text.slice(start, end), edit.rename, `${edit.file}'s copied lines`);
    writeFileSync(file, text.slice(0, end) + copy + text.slice(end));
    return;
  }
  const at = onlyPlace(text, "replace" in edit ? edit.replace : edit.afterLine, edit.file);
  if ("replace" in edit) {
    writeFileSync(file, text.slice(0, at) + edit.with + text.slice(at + edit.replace.length));
    return;
  }
  const lineEnd = text.indexOf("\n", at) + 1 || text.length;
  writeFileSync(file, `${text.slice(0, lineEnd)}${edit.lines.join("\n")}\n${text.slice(lineEnd)}`);
}

/** A folder's unit test files (the integration tier's `*.integration.test.ts` left out). */
function unitTests(tree: string, folders: readonly string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(path.join(tree, folder))
      .filter((f) => f.endsWith(".test.ts") && !f.endsWith(".integration.test.ts"))
      .map((f) => path.join(folder, f)),
  );
}

/** Runs a command in the scratch tree; its output is shown only when it fails. */
function step(tree: string, what: string, command: string, args: readonly string[]): boolean {
  const result = spawnSync(command, args, {
    cwd: tree,
    encoding: "utf8",
    env: { ...process.env, BLOGQA_NO_BUNDLE: "1" },
  });
  if (result.status === 0) return true;
  // A test run's output is long: its failing tests' lines say enough.
  const lines = `${result.stdout}${result.stderr}`.trimEnd().split("\n");
  const failing = lines.filter((line) => /^\s*not ok /.test(line));
  console.error(`  ${what} failed:\n${(failing.length > 0 ? failing : lines.slice(-30)).join("\n")}`);
  return false;
}

function measure(recipe: Recipe): { counted: string[]; tests: string[]; ok: boolean } {
  const tree = mkdtempSync(path.join(os.tmpdir(), "blogqa-footprint-"));
  rmSync(tree, { recursive: true });
  git(root, ["worktree", "add", "--detach", "--quiet", tree, "HEAD"]);
  try {
    symlinkSync(path.join(root, "node_modules"), path.join(tree, "node_modules"));
    for (const edit of recipe.edits) applyEdit(tree, edit);
    let ok = step(tree, "tsc", "npx", ["tsc", "--noEmit"]);
    ok &&= step(tree, "docs:commands", "npm", ["run", "-s", "docs:commands"]);
    ok &&= step(tree, "schemas", "npm", ["run", "-s", "schemas"]);
    if (ok && values["no-tests"] !== true) {
      ok = step(tree, "unit tests", process.execPath, ["--import", "tsx", "--test", ...unitTests(tree, recipe.tests)]);
    }
    const changed = git(tree, ["status", "--porcelain", "--untracked-files=all"])
      .split("\n")
      .filter((line) => line !== "" && !line.endsWith("node_modules"))
      .map((line) => line.slice(3));
    return {
      counted: changed.filter((f) => !NOT_COUNTED.some((re) => re.test(f))),
      tests: changed.filter((f) => f.startsWith("test/")),
      ok,
    };
  } finally {
    if (values.keep === true) console.error(`  kept: ${tree}`);
    else git(root, ["worktree", "remove", "--force", tree]);
  }
}

let failed = false;
console.log("| change | files outside tests and generated docs | which | test files |\n|---|---:|---|---|");
for (const recipe of RECIPES.filter((r) => values.only === undefined || r.change.startsWith(values.only))) {
  console.error(`${recipe.change}...`);
  const { counted, tests, ok } = measure(recipe);
  failed ||= !ok;
  const which = counted.map((f) => `\`${f}\``).join(", ");
  const testFiles = tests.map((f) => `\`${f}\``).join(", ") || "none";
  console.log(
    `| ${recipe.change} | ${counted.length}${ok ? "" : " (does not build or pass)"} | ${which} | ${testFiles} |`,
  );
}
process.exitCode = failed ? 1 : 0;
