// The CLI's contract with a user: help exits 0, a usage error is one line plus a pointer to --help, never a stack.
// The messages are checked in process (runCliInProcess); one real process per exit status (0, 1, 2) checks that the
// entry ends with the status the command line returned. Signals (130, 143): signals.integration.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot, runCli } from "../helpers/run-cli.ts";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";

test("--help lists the usage and exits 0", async () => {
  const result = await runCliInProcess(["--help"]);
  assert.equal(result.status, 0);
  assert.match(result.stdout, /npx blogqa <command>/);
  assert.match(result.stdout, /npm run -s blogqa -- <command>/);
});

test("a real process: an unknown command exits 2 with one line naming the nearest command, then 'run with --help'", () => {
  const result = runCli(["rnu"]);
  assert.equal(result.status, 2);
  assert.equal(result.stderr, 'blogqa: unknown command "rnu". Did you mean run?\nrun with --help\n');
  assert.equal(result.stdout, "");
});

test("an unknown option exits 2 with one line, not the whole help", async () => {
  const result = await runCliInProcess(["cost", "--bogus"]);
  assert.equal(result.status, 2);
  assert.equal(result.stderr, "blogqa: Unknown argument: bogus\nrun with --help\n");
});

test("a near miss is suggested only among options --help shows, never a positional or a hidden option", async () => {
  // audit's positional is RUN, smoke hides --server: neither is an option to suggest
  assert.equal(
    (await runCliInProcess(["audit", "--runs", "4"])).stderr,
    "blogqa: Unknown argument: runs\nrun with --help\n",
  );
  assert.equal(
    (await runCliInProcess(["audit", "--limt", "4"])).stderr,
    "blogqa: unknown option --limt; did you mean --limit?\nrun with --help\n",
  );
  assert.doesNotMatch((await runCliInProcess(["smoke", "--servr", "x"])).stderr, /did you mean --server/);
});

test("no command at all is a usage error too", async () => {
  const result = await runCliInProcess([]);
  assert.equal(result.status, 2);
  assert.equal(result.stderr.trim().split("\n").length, 2);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
});

test("a real process: package.json's bin runs the CLI, exits 0, and --json prints JSON alone on stdout", () => {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { bin: Record<string, string> };
  const bin = path.join(repoRoot, pkg.bin.blogqa ?? assert.fail("no blogqa bin"));
  const result = spawnSync(process.execPath, [bin, "cost", "--json"], { cwd: repoRoot, encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  const rows = JSON.parse(result.stdout) as { turns: number }[];
  assert.deepEqual(
    rows.map((r) => r.turns),
    [5, 10, 20, 50],
  );
});

test("usage slips are one line that says what to type: the nearest option, two dashes, a file for a folder", async () => {
  const blog = path.join(repoRoot, "test/fixtures/blog");
  const cases: [string[], string, number][] = [
    [
      ["run", "--retriver", "bm25"],
      "blogqa: unknown option --retriver; did you mean --retriever?\nrun with --help\n",
      2,
    ],
    [
      ["run", "-retriever", "bm25"],
      "blogqa: -retriever: a long option takes two dashes: --retriever\nrun with --help\n",
      2,
    ],
    [["run", "--models", blog], `blogqa: --models ${blog} is a folder; --models takes a JSON file of models\n`, 1],
    [
      ["run", "--chat-template", blog],
      `blogqa: --chat-template ${blog} is a folder; --chat-template takes a Jinja template file\n`,
      1,
    ],
    [
      ["sections", "--content", path.join(blog, "questions.jsonl")],
      `blogqa: --content ${path.join(blog, "questions.jsonl")} is a file; --content takes a folder of posts\n`,
      1,
    ],
  ];
  for (const [args, stderr, status] of cases) {
    const result = await runCliInProcess(args);
    assert.deepEqual([result.status, result.stderr], [status, stderr], args.join(" "));
  }
});

test("a real process: an error a user can act on exits 1 with its one line, no stack trace", () => {
  const missing = path.join(repoRoot, "test/fixtures/no-such-run/answers.jsonl");
  const result = runCli(["rescore", missing]);
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.stderr, `blogqa: ${missing}: no such file or folder (give a run folder or its answers.jsonl)\n`);
  assert.equal(result.stdout, "");
});
