// The corpus commands through the command line: sections as JSONL, questions check passing and failing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/blog");
const posts = path.join(fixtures, "posts");

test("sections prints one JSON section a line on stdout", async () => {
  const result = await runCliInProcess(["sections", "--content", posts]);
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(lines.length, 15);
  assert.deepEqual(Object.keys(lines[0]!), ["post", "heading", "level", "text"]);
  assert.deepEqual(lines[4], {
    post: "kitchen-sink",
    heading: "A repeated heading (2)",
    level: 3,
    text: "Second body.",
  });
});

test("questions check passes the fixture questions with a one-line summary", async () => {
  const result = await runCliInProcess([
    "questions",
    "check",
    "--questions",
    path.join(fixtures, "questions.jsonl"),
    "--content",
    posts,
  ]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(
    result.stdout,
    /^\S*questions\.jsonl: 9 questions about 3 posts, all found in \S+ \(3 posts, 15 sections\)\nweak facts: none flagged, none cleared\nquestions per post: 3 on 3 posts\n$/,
  );
  assert.equal(result.stderr, "");
});

test("questions check passes one question on each of six posts, and warns that it is not the study's shape", async () => {
  const own = path.resolve(import.meta.dirname, "../fixtures/own-blog");
  const questions = path.join(own, "questions.jsonl");
  const result = await runCliInProcess([
    "questions",
    "check",
    "--questions",
    questions,
    "--content",
    path.join(own, "posts"),
  ]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(
    result.stdout,
    /: 6 questions about 6 posts, all found in .* \(6 posts, 17 sections\)\nweak facts: none flagged, none cleared\nquestions per post: 1 on 6 posts\n$/,
  );
  assert.equal(
    result.stderr,
    "warning: questions per post: 1 on 6 posts, not the study's 3 on each: fine for your own blog, but its numbers " +
      "are not comparable with the study's\n",
  );
});

test("questions check exits 1 with one line per problem naming file:line, and no stack", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-q-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, "questions.jsonl");
  const lines = readFileSync(path.join(fixtures, "questions.jsonl"), "utf8").trimEnd().split("\n");
  lines[1] = lines[1]!.replace('"Tables and math"', '"Tables and Maths"');
  lines[8] = "{oops";
  writeFileSync(file, `${lines.join("\n")}\n`);
  const result = await runCliInProcess(["questions", "check", "--questions", file, "--content", posts]);
  assert.equal(result.status, 1);
  assert.equal(result.stdout, "");
  const problems = result.stderr.trimEnd().split("\n");
  assert.match(problems[0]!, /^blogqa: .*questions\.jsonl: bad questions: 2 problems$/);
  assert.equal(
    problems[1],
    `${file}:2: heading "Tables and Maths" is not a section of post "kitchen-sink" (did you mean "Tables and math"?)`,
  );
  assert.match(problems[2]!, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:9: not valid JSON`));
  assert.doesNotMatch(result.stderr, /\n\s+at /);
});

test("questions check on a missing file or a broken blog says which, and exits 1", async (t) => {
  const missing = await runCliInProcess([
    "questions",
    "check",
    "--questions",
    "/nonexistent/q.jsonl",
    "--content",
    posts,
  ]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /\/nonexistent\/q\.jsonl: questions file not found/);
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-blog-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, "broken.mdx"), "---\ntitle: Broken\n");
  const broken = await runCliInProcess([
    "questions",
    "check",
    "--questions",
    path.join(fixtures, "questions.jsonl"),
    "--content",
    dir,
  ]);
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /broken\.mdx:1: frontmatter opened with --- is never closed/);
});
