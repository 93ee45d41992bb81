// Posts written to break the parser, through the real CLI: each is one line naming it and its limit, never a hang.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { runCliAsync } from "../helpers/run-cli.ts";
import { tempFolders } from "../helpers/temp-folders.ts";
import { HOSTILE_POSTS } from "../helpers/hostile-posts.ts";

const tempFolder = tempFolders("blogqa-hostile");

const REFUSAL = new RegExp(
  "^: post (?:was not parsed within \\d+\\.\\d s, the limit for its size" +
    "|is \\d+\\.\\d MB, over the 1\\.0 MB a post may be" +
    "|nests too deeply to parse \\(the parser ran out of stack\\)" +
    "|needed over 512 MB of memory to parse, the limit)" +
    ": split it into smaller posts, or move it out of the content folder$",
);

test("every hostile post is refused in one line naming it and the limit, and the command exits 1", async () => {
  const dir = tempFolder("blog");
  writeFileSync(path.join(dir, "fine.mdx"), "---\ntitle: Fine\n---\n\nA fine post.\n");
  for (const post of HOSTILE_POSTS) writeFileSync(path.join(dir, post.name), post.body());
  const started = Date.now();
  const result = await runCliAsync(["sections", "--content", dir]);
  const seconds = (Date.now() - started) / 1000;
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines[0], `blogqa: ${dir}: cannot read the blog: ${HOSTILE_POSTS.length} problems`);
  // Those refused by size come first, from the walk; then those refused as they are parsed.
  const refusals = lines.slice(1).sort();
  const names = HOSTILE_POSTS.map((p) => p.name).sort();
  assert.equal(refusals.length, names.length, result.stderr);
  names.forEach((name, i) => {
    const file = path.join(dir, name);
    const line = refusals[i]!;
    assert.ok(line.startsWith(`${file}: `), line);
    assert.match(line.slice(file.length), REFUSAL);
  });
  // Not a timing test (BENCHMARKS-style figures are in the docs): a bound no parse left running would meet.
  assert.ok(seconds < 600, `took ${seconds} s`);
});
