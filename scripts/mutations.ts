// Mutation testing: applies each mutation below to a scratch copy of the tree, one at a time, runs the tests that
// should catch it, and prints which tests caught it. A mutation is an exact search/replace in one source file; the
// script refuses to start when a search text is not found exactly once, so it fails loudly when the code moves.
//
//   nice -n 10 npx tsx scripts/mutations.ts [--only ID,ID] [--no-smoke] [--keep] [--check]
//
// Each mutation runs its unit test files, then the trained-smoke snapshot test
// (test/runs/trained-smoke.integration.test.ts), unless --no-smoke; --check only checks that every mutation applies. The working tree is never touched: the scratch
// copy holds its tracked and unignored files, node_modules and the generated test models linked from it.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

interface Mutation {
  readonly id: string;
  /** What the mutation breaks, in a few words. */
  readonly what: string;
  readonly file: string;
  readonly search: string;
  readonly replace: string;
  /** The unit test files that should catch it. */
  readonly tests: readonly string[];
}

const LOOP = "test/designs/agent-loop.test.ts";
const ENGINEERED = "test/designs/engineered.test.ts";
const SCORERS = "test/scoring/scorers.test.ts";
const TABLES = "test/report/tables.test.ts";
const RECORD = "test/runs/answer-record.test.ts";
const SMOKE = "test/runs/trained-smoke.integration.test.ts";

const MUTATIONS: readonly Mutation[] = [
  {
    id: "strict-several",
    what: "the strict rescore takes a line naming several posts as one real post",
    file: "src/scoring/strict.ts",
    search: 'posts.length === 1 ? "one-real" : "several"',
    replace: 'posts.length >= 1 ? "one-real" : "several"',
    tests: [SCORERS, TABLES],
  },
  {
    id: "workflow-2-hits",
    what: "the workflow shows 2 hits",
    file: "src/designs/limits.ts",
    search: "export const WORKFLOW_HITS = 3;",
    replace: "export const WORKFLOW_HITS = 2;",
    tests: [LOOP],
  },
  {
    id: "snippet-50",
    what: "snippets of 50 words",
    file: "src/search/snippet.ts",
    search: "export const SNIPPET_WORDS = 60;",
    replace: "export const SNIPPET_WORDS = 50;",
    tests: ["test/search/fusion.test.ts", LOOP],
  },
  {
    id: "loop-one-call",
    what: "the loop stops after one model call",
    file: "src/designs/agent-loop.ts",
    search: "for (let turn = 1; turn <= MAX_TURNS; turn++) {",
    replace: "for (let turn = 1; turn <= 1; turn++) {",
    tests: [LOOP],
  },
  {
    id: "first-call-only",
    what: "only the first of several calls in a reply runs",
    file: "src/designs/agent-loop.ts",
    search: "for (const block of blocks) toolCalls.push",
    replace: "for (const block of blocks.slice(0, 1)) toolCalls.push",
    tests: [LOOP],
  },
  {
    id: "read-next-section",
    what: "read_section returns the section after the one asked for",
    file: "src/designs/tools.ts",
    search: "const section = index.section(post, heading);",
    replace:
      "const all = index.headings(post) ?? [];\n      const section = index.section(post, all[all.indexOf(heading) + 1] ?? heading);",
    tests: [LOOP],
  },
  {
    id: "forced-prefix-dropped",
    what: "the forced design's prefix is dropped",
    file: "src/designs/agent-loop.ts",
    search: 'firstReply: design === "agent-forced" ? dialect.forced : {}',
    replace: "firstReply: {}",
    tests: [LOOP],
  },
  {
    id: "tokens-read-output",
    what: "tokens read counts the output tokens too",
    file: "src/runs/answer-record.ts",
    search: "tokens_read: sum(records.map((r) => r.tokensRead)),",
    replace: "tokens_read: sum(records.map((r) => r.tokensRead + r.tokensGenerated)),",
    tests: [LOOP, RECORD],
  },
  {
    id: "last-context-first",
    what: "last context takes the first call",
    file: "src/runs/answer-record.ts",
    search: "last_context: records.at(-1)?.tokensRead ?? 0,",
    replace: "last_context: records.at(0)?.tokensRead ?? 0,",
    tests: [LOOP, RECORD],
  },
  {
    id: "penalty-dropped",
    what: "the repetition penalty is never passed to the sampler",
    file: "src/llm/sequence-runtime.ts",
    search: "if (penalty === null) return base;",
    replace: "if (penalty !== undefined) return base;",
    tests: ["test/llm/evaluate-options.test.ts"],
  },
  {
    id: "fusion-order",
    what: "hybrid fuses dense first, so a tie goes to the dense hit",
    file: "src/search/open-index.ts",
    search: "reciprocalRankFusion([bm25!.rank(query), await denseRanking(query)])",
    replace: "reciprocalRankFusion([await denseRanking(query), bm25!.rank(query)])",
    tests: ["test/search/open-index.test.ts"],
  },
  {
    id: "error-text",
    what: "a failed call's error text changed",
    file: "src/designs/tools.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal in the code mutated
    search: "if (error instanceof PyError) return `${error.type}: ${error.message}`;",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal in the code mutated
    replace: "if (error instanceof PyError) return `${error.type} - ${error.message}`;",
    tests: [LOOP],
  },
  {
    id: "no-tool-failed-calls",
    what: "no tool counts runs whose every call failed",
    file: "src/scoring/summary.ts",
    search:
      'no_tool: design === "workflow" ? 0 : count(runs, (r) => r.tool_calls === 0),\n      malformed: runs.reduce((a, r) => a + r.malformed, 0),\n      tokens_evaluated',
    replace:
      'no_tool: design === "workflow" ? 0 : count(runs, (r) => r.tool_calls === r.malformed),\n      malformed: runs.reduce((a, r) => a + r.malformed, 0),\n      tokens_evaluated',
    tests: [TABLES],
  },
  {
    id: "malformed-runs",
    what: "malformed counts runs with a failed call, not failed calls",
    file: "src/scoring/summary.ts",
    search: "malformed: runs.reduce((a, r) => a + r.malformed, 0),\n      tokens_evaluated",
    replace: "malformed: count(runs, (r) => r.malformed > 0),\n      tokens_evaluated",
    tests: [TABLES],
  },
  {
    id: "lenient-no-fallback",
    what: "lenient cites right no longer searches an answer without a Source line",
    file: "src/scoring/lenient.ts",
    search: "(at === -1 ? answer : answer.slice(",
    replace: '(at === -1 ? "" : answer.slice(',
    tests: [SCORERS, TABLES],
  },
  {
    id: "cites-any-line-start",
    what: "cites any wants Source: at the start of a line",
    file: "src/scoring/lenient.ts",
    search: 'return answer.includes("Source:");',
    replace: "return /^Source:/m.test(answer);",
    tests: [SCORERS, TABLES],
  },
  {
    id: "found-first-hit",
    what: "found asks whether the first post shown is the right one",
    file: "src/runs/answer-record.ts",
    search: "found: searched.has(question.post) }",
    replace: "found: [...searched][0] === question.post }",
    tests: [LOOP, RECORD],
  },
  {
    id: "model-calls-no-repair",
    what: "model calls leave out the cite check's repair call",
    file: "src/runs/answer-record.ts",
    search: "model_calls: records.length,",
    replace: "model_calls: records.length - (transcript.repair ? 1 : 0),",
    tests: [ENGINEERED, RECORD],
  },
  {
    id: "tool-calls-parsed-only",
    what: "tool calls leave out the calls that failed",
    file: "src/runs/answer-record.ts",
    search: "tool_calls: (transcript.retrieval ? 1 : 0) + toolCalls.length,",
    replace: "tool_calls: (transcript.retrieval ? 1 : 0) + toolCalls.filter((t) => !t.malformed).length,",
    tests: [LOOP, ENGINEERED, RECORD],
  },
  {
    id: "turn-limit-5",
    what: "the turn limit is 5, not the study's 6",
    file: "src/designs/limits.ts",
    search: "export const MAX_TURNS = 6;",
    replace: "export const MAX_TURNS = 5;",
    tests: [LOOP],
  },
  {
    id: "search-first-dropped",
    what: 'the system prompt loses its "always search" sentence',
    file: "src/designs/wording.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal in the code mutated
    search: 'return design === "agent" ? base : `${base} ${w.search_first}`;',
    replace: "return base;",
    tests: [LOOP, "test/designs/wording.test.ts"],
  },
  {
    id: "max-tokens-199",
    what: "at most 199 new tokens per call, not the study's 200",
    file: "src/runs/settings.ts",
    search: "export const STUDY_MAX_NEW_TOKENS = 200;",
    replace: "export const STUDY_MAX_NEW_TOKENS = 199;",
    tests: ["test/runs/settings.test.ts", "test/docs/command-reference.test.ts"],
  },
];

interface Options {
  readonly only: ReadonlySet<string> | undefined;
  readonly smoke: boolean;
  readonly keep: boolean;
  readonly check: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  let only: Set<string> | undefined;
  let smoke = true;
  let keep = false;
  let check = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--no-smoke") smoke = false;
    else if (arg === "--keep") keep = true;
    else if (arg === "--check") check = true;
    else if (arg === "--only" && argv[i + 1] !== undefined) only = new Set(argv[++i]!.split(","));
    else usage(`unknown or incomplete option ${arg}`);
  }
  const unknown = [...(only ?? [])].filter((id) => !MUTATIONS.some((m) => m.id === id));
  if (unknown.length > 0) usage(`no mutation ${unknown.join(", ")}; the ids: ${MUTATIONS.map((m) => m.id).join(", ")}`);
  return { only, smoke, keep, check };
}

function usage(problem: string): never {
  console.error(
    `mutations: ${problem}\nusage: tsx scripts/mutations.ts [--only ID,ID] [--no-smoke] [--keep] [--check]`,
  );
  process.exit(2);
}

const root = path.resolve(import.meta.dirname, "..");

/** The tree as it stands (tracked and unignored files), node_modules and the generated test models linked. */
function scratchCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-mutations-"));
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    const from = path.join(root, file);
    if (!existsSync(from) || file === "node_modules") continue; // deleted in the working tree, or the link itself
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(from, path.join(dir, file), { verbatimSymlinks: true });
  }
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  // The generated models are the same bytes for every mutation (none touches src/test-models/); the index caches
  // are not shared, since a mutation may change what a search shows.
  const tiny = path.join(root, ".cache/test/tiny");
  mkdirSync(path.join(dir, ".cache/test"), { recursive: true });
  if (existsSync(tiny)) symlinkSync(tiny, path.join(dir, ".cache/test/tiny"));
  return dir;
}

/** Each search text must occur exactly once in its file: otherwise the code moved and the mutation means nothing. */
function checkApplies(mutations: readonly Mutation[]): void {
  const problems = mutations.flatMap((m) => {
    const text = readFileSync(path.join(root, m.file), "utf8");
    const found = text.split(m.search).length - 1;
    return found === 1 ? [] : [`${m.id}: its search text occurs ${found} times in ${m.file}`];
  });
  if (problems.length > 0) {
    console.error(`mutations: the code moved; update these mutations:\n${problems.join("\n")}`);
    process.exit(1);
  }
}

interface TestRun {
  readonly file: string;
  readonly failed: boolean;
  /** The tests that failed, by name. */
  readonly failures: readonly string[];
  readonly seconds: number;
}

/** Runs each file apart, so that a failure names its file. */
function runTests(dir: string, files: readonly string[]): TestRun[] {
  return files.map((file) => {
    const start = performance.now();
    const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=tap", file], {
      cwd: dir,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    const failures = [...result.stdout.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((m) => m[1]!.replace(/ # .*$/, ""));
    return { file, failed: result.status !== 0, failures, seconds: (performance.now() - start) / 1000 };
  });
}

const failed = (runs: readonly TestRun[] | undefined) => runs?.some((r) => r.failed) === true;
const seconds = (runs: readonly TestRun[] | undefined) => (runs ?? []).reduce((a, r) => a + r.seconds, 0);

/** "survived", "not run", or each failing file with its first failing test and how many more failed. */
function verdict(runs: readonly TestRun[] | undefined): string {
  if (runs === undefined) return "not run";
  const caught = runs.filter((r) => r.failed);
  if (caught.length === 0) return "survived";
  return caught
    .map((r) => {
      const [first, ...rest] = r.failures;
      const more = rest.length > 0 ? ` (+${rest.length} more)` : "";
      return `\`${path.basename(r.file)}\`${first === undefined ? "" : `: "${first}"${more}`}`;
    })
    .join("; ");
}

const options = parseArgs(process.argv.slice(2));
const chosen = MUTATIONS.filter((m) => options.only === undefined || options.only.has(m.id));
checkApplies(chosen);
if (options.check) {
  console.log(`all ${chosen.length} mutations apply`);
  process.exit(0);
}
const dir = scratchCopy();
console.error(`mutations: scratch copy ${dir}`);
const started = performance.now();
const rows: string[] = [];
try {
  // The tests must pass before anything is mutated, or a failure would say nothing about a mutation.
  const baseline = runTests(dir, [...new Set(chosen.flatMap((m) => m.tests))]);
  if (failed(baseline)) throw new Error(`the unit tests fail without any mutation: ${verdict(baseline)}`);
  for (const [i, m] of chosen.entries()) {
    const file = path.join(dir, m.file);
    const original = readFileSync(file, "utf8");
    writeFileSync(
      file,
      original.replace(m.search, () => m.replace),
    );
    try {
      console.error(`mutations: ${i + 1}/${chosen.length} ${m.id}`);
      const unit = runTests(dir, m.tests);
      const smoke = options.smoke ? runTests(dir, [SMOKE]) : undefined;
      const caught = failed(unit) || failed(smoke);
      const took = Math.round(seconds(unit) + seconds(smoke));
      rows.push(
        `| ${m.id} | ${m.what} | \`${m.file}\` | ${caught ? "caught" : "SURVIVED"} | ${verdict(unit)} | ${verdict(smoke)} | ${took} |`,
      );
      console.error(rows.at(-1));
    } finally {
      writeFileSync(file, original);
    }
  }
} finally {
  if (!options.keep) rmSync(dir, { recursive: true, force: true });
}
console.log("| mutation | what it breaks | file | verdict | unit tests | trained-smoke snapshot | seconds |");
console.log("| --- | --- | --- | --- | --- | --- | ---: |");
for (const row of rows) console.log(row);
const survived = rows.filter((r) => r.includes("| SURVIVED |")).length;
console.log(
  `\n${rows.length - survived} of ${rows.length} caught, in ${Math.round((performance.now() - started) / 1000)} s`,
);
process.exit(survived > 0 ? 1 : 0);
