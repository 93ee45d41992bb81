// Bad inputs a careful user meets (broken logs, wrong paths, unreadable files): one line naming the path, a non-zero
// exit, no stack trace; and where a case used to change the numbers silently, the numbers as they should be. Each
// command runs in process (runCliInProcess), but for the permission cases, which need a process of another user.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot, type CliResult } from "../helpers/run-cli.ts";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { describeFsError } from "../../src/common/fs-errors.ts";

const BLOG = path.join(repoRoot, "test/fixtures/blog/posts");
const QUESTIONS = path.join(repoRoot, "test/fixtures/blog/questions.jsonl");
/** Tests run as root in some places, where chmod stops nobody: a child run as this user meets the permissions. */
const NOBODY = { uid: 65534, gid: 65534 };
const isRoot = process.getuid?.() === 0;

/** The CLI in this process (the paths are absolute: they do not depend on the working folder). */
const cli = (args: readonly string[]): Promise<CliResult> => runCliInProcess(args);

/** The CLI in a child process, as `as` where given (several at once: each takes a second or two to start). */
function cliAs(args: readonly string[], options: { as?: typeof NOBODY } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "bin/blogqa.cjs"), ...args], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      ...(options.as ?? {}),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Exit 1, one line on stderr matching `pattern`, and no stack trace. */
function failsWith(result: CliResult, pattern: RegExp): void {
  assert.equal(result.status, 1, `exit status; stderr: ${result.stderr}`);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
  assert.equal(result.stderr.trim().split("\n").length, 1, `one line: ${result.stderr}`);
}

const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-cli-errors-"));
  chmodSync(dir, 0o755); // readable by the unprivileged child
  return dir;
};
/** A run on the fixture blog (its model never loads: these runs stop before) into `out`. */
const runInto = (out: string) => [
  "run",
  "--model",
  "x.gguf",
  "--retriever",
  "bm25",
  "--content",
  BLOG,
  "--questions",
  QUESTIONS,
  "--out",
  out,
];

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** Four runs: workflow and agent on q1 and q2, each citing the gold post. */
const RUNS = ["workflow", "agent"].flatMap((design) =>
  ["q1", "q2"].map((q) =>
    makeRecord({
      design: design as "workflow" | "agent",
      question_id: q,
      gold_post: "vector-search",
      answer: "Cosine.\nSource: vector-search",
      found: true,
    }),
  ),
);

function runFolder(text: string): { dir: string; log: string } {
  const dir = tempDir();
  writeFileSync(path.join(dir, "answers.jsonl"), text);
  return { dir, log: path.join(dir, "answers.jsonl") };
}

/** rescore --json's strict rows: [design, n] pairs. */
const counts = (stdout: string) =>
  (
    JSON.parse(stdout) as { tables: { strict: { rows: { "strict.csv": { design: string; n: number }[] } } } }
  ).tables.strict.rows["strict.csv"].map((r) => [r.design, r.n]);

describe("logs the readers cannot trust", { concurrency: 4 }, () => {
  it("a torn last line: rescore, compare and report say so on stderr and count only the complete lines", async () => {
    const { dir, log } = runFolder(
      RUNS.map(line).join("") + line(makeRecord({ design: "agent", question_id: "q3" })).slice(0, 60),
    );
    const [rescore, compare, report] = await Promise.all([
      cli(["rescore", log, "--content", BLOG, "--json"]),
      cli(["compare", dir, "--content", BLOG, "--json"]),
      cli(["report", dir, "--content", BLOG]),
    ]);
    for (const result of [rescore, compare, report]) {
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stderr, new RegExp(`${log}:5: the last line is torn .*not counted`));
    }
    assert.deepEqual(counts(rescore.stdout), [
      ["workflow", 2],
      ["agent", 2],
    ]);
    assert.ok(existsSync(path.join(dir, "report.html")));
  });

  it("a duplicated (model, design, question) is an error naming FILE:LINE, for rescore, compare and report alike", async () => {
    const { dir, log } = runFolder([...RUNS, RUNS[1]!].map(line).join(""));
    const results = await Promise.all([
      cli(["rescore", dir, "--content", BLOG]),
      cli(["compare", dir, "--content", BLOG]),
      cli(["report", dir, "--content", BLOG]),
    ]);
    for (const result of results) {
      failsWith(
        result,
        new RegExp(
          `^blogqa: ${log}:5: a second line for model tiny\\.gguf, design workflow, question q2 \\(first on line 2\\)`,
        ),
      );
    }
  });

  it("a schema-1 line of another shape, and a line missing a field, name FILE:LINE and the field", async () => {
    const foreign = runFolder(RUNS.map(line).join("") + line({ schema: 1, note: "hand-added" }));
    const { answer: _, ...noAnswer } = RUNS[2]!;
    const missing = runFolder(line(RUNS[0]) + line(noAnswer));
    const [a, b] = await Promise.all([
      cli(["rescore", foreign.dir, "--content", BLOG]),
      cli(["compare", missing.log, "--content", BLOG]),
    ]);
    failsWith(
      a,
      new RegExp(`^blogqa: ${foreign.log}:5: field model: missing; not a blogqa answer line: fix or remove that line`),
    );
    failsWith(b, new RegExp(`^blogqa: ${missing.log}:2: field answer: missing`));
  });

  it("a log written before `design` was named reads the same numbers from its `variant` field", async () => {
    const old = RUNS.map((r) => {
      const { design, ...rest } = r;
      return line({ ...rest, variant: design });
    });
    const [before, now] = await Promise.all([
      cli(["rescore", runFolder(old.join("")).dir, "--content", BLOG, "--json"]),
      cli(["rescore", runFolder(RUNS.map(line).join("")).dir, "--content", BLOG, "--json"]),
    ]);
    assert.equal(before.status, 0, before.stderr);
    assert.equal(before.stdout, now.stdout);
    assert.deepEqual(counts(before.stdout), [
      ["workflow", 2],
      ["agent", 2],
    ]);
  });

  it("a missing path, a folder without answers.jsonl, and an empty log are named", async () => {
    const empty = tempDir();
    const nothing = runFolder("");
    const [rescore, compare, report, audit, none] = await Promise.all([
      cli(["rescore", path.join(empty, "nope.jsonl")]),
      cli(["compare", empty]),
      cli(["report", path.join(empty, "nope")]),
      cli(["audit", "--out", empty]),
      cli(["report", nothing.dir, "--content", BLOG]),
    ]);
    failsWith(rescore, /^blogqa: .*nope\.jsonl: no such file or folder \(give a run folder or its answers\.jsonl\)/);
    failsWith(compare, new RegExp(`^blogqa: ${empty}: no answers\\.jsonl here`));
    failsWith(report, /^blogqa: .*nope: no such file or folder/);
    failsWith(audit, new RegExp(`^blogqa: ${empty}: no answers\\.jsonl here`));
    failsWith(none, new RegExp(`^blogqa: ${nothing.log}: no answers logged yet`));
  });
});

describe("paths that are the wrong kind of thing", { concurrency: 4 }, () => {
  it("report into a folder where report.html is a folder: the filesystem error as one line with the path", async () => {
    const { dir } = runFolder(RUNS.map(line).join(""));
    mkdirSync(path.join(dir, "report.html"));
    failsWith(
      await cli(["report", dir, "--content", BLOG]),
      new RegExp(`^blogqa: ${dir}/report\\.html: is a folder where a file was expected \\(EISDIR, open\\)`),
    );
  });

  it("a questions path that is a folder is named; a questions file starting with a byte-order mark is read", async () => {
    const dir = tempDir();
    const bom = path.join(dir, "bom.jsonl");
    writeFileSync(bom, `\uFEFF${readFileSync(QUESTIONS, "utf8")}`);
    const [folder, withBom, plain] = await Promise.all([
      cli(["questions", "check", "--questions", dir, "--content", BLOG]),
      cli(["questions", "check", "--questions", bom, "--content", BLOG]),
      cli(["questions", "check", "--questions", QUESTIONS, "--content", BLOG]),
    ]);
    failsWith(folder, new RegExp(`^blogqa: --questions ${dir} is a folder; --questions takes a \\.jsonl file`));
    assert.equal(withBom.status, 0, withBom.stderr);
    assert.equal(withBom.stdout.replace(bom, "FILE"), plain.stdout.replace(QUESTIONS, "FILE"));
    assert.match(withBom.stdout, /: 9 questions about 3 posts/);
  });

  it("--out that is a file, or lies under a file, is refused before any work", async () => {
    const dir = tempDir();
    const file = path.join(dir, "taken");
    writeFileSync(file, "");
    const run = (out: string) => cli(runInto(out));
    const [isFile, underFile] = await Promise.all([run(file), run(path.join(file, "run1"))]);
    failsWith(isFile, new RegExp(`^blogqa: --out ${file}: ${file} is a file; --out takes a folder`));
    failsWith(underFile, new RegExp(`^blogqa: --out ${file}/run1: ${file} is a file, not a folder`));
    assert.deepEqual(readdirSync(dir), ["taken"], "nothing created");
  });
});

describe("permissions", {
  concurrency: 4,
  skip: isRoot && !canRunAsNobody() && "cannot start the CLI as an unprivileged user here",
}, () => {
  const as = isRoot ? { as: NOBODY } : {};

  it("a post that cannot be read names the file and what to do", async () => {
    const blog = tempDir();
    for (const name of readdirSync(BLOG)) copyFileSync(path.join(BLOG, name), path.join(blog, name));
    chmodSync(path.join(blog, "vector-search.mdx"), 0o000);
    const result = await cliAs(["sections", "--content", blog], as);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`${blog}/vector-search\\.mdx: post cannot be read \\(EACCES\\)`));
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });

  it("--out in a folder this user cannot write, and report into one, fail with the path and the reason", async () => {
    const locked = tempDir();
    const { dir } = runFolder(RUNS.map(line).join(""));
    chmodSync(locked, 0o555);
    chmodSync(dir, 0o555);
    const [run, report] = await Promise.all([
      cliAs(runInto(path.join(locked, "run1")), as),
      cliAs(["report", dir, "--content", BLOG], as),
    ]);
    failsWith(
      run,
      new RegExp(
        `^blogqa: --out ${locked}/run1 cannot be written: ${locked}/\\.blogqa-write-test-\\d+: permission denied \\(EACCES, mkdir\\)`,
      ),
    );
    failsWith(
      report,
      new RegExp(`^blogqa: ${dir}/report\\.html: permission denied \\(EACCES, open\\); check its permissions`),
    );
  });
});

it("any filesystem error becomes one line with its path, code and what to do; other errors are not touched", () => {
  const error = Object.assign(new Error("EACCES: permission denied, open '/x/y'"), {
    code: "EACCES",
    syscall: "open",
    path: "/x/y",
    errno: -13,
  });
  assert.equal(
    describeFsError(error),
    "/x/y: permission denied (EACCES, open); check its permissions, or choose another path",
  );
  const rename = Object.assign(new Error("EXDEV"), { code: "EXDEV", syscall: "rename", path: "/a", dest: "/b" });
  assert.equal(describeFsError(rename), "/a -> /b: EXDEV (EXDEV, rename); check the path");
  assert.equal(describeFsError(new TypeError("x is not a function")), undefined);
  const network = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED", syscall: "connect" });
  assert.equal(describeFsError(network), undefined, "not a file: no path to name");
});

/** Whether an unprivileged child can read this checkout (it must, to start the CLI). */
function canRunAsNobody(): boolean {
  return (
    (statSync(repoRoot).mode & 0o005) === 0o005 && (statSync(path.join(repoRoot, "src/cli.ts")).mode & 0o004) === 0o004
  );
}
