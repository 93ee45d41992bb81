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
  // Those refused by size come first, from the walk; then those refused as they are parsed.
  const refusals = lines.slice(1).sort();
  assert.equal(lines[0], `blogqa: ${dir}: cannot read the blog: ${refusals.length} problems`);
  const refused = new Set(refusals.map((line) => path.basename(line.slice(0, line.indexOf(": ")))));
  for (const post of HOSTILE_POSTS) {
    // A slow post read within its deadline (an idle machine) is no problem; one that never ends always is.
    if (post.finite && !refused.has(post.name)) continue;
    const file = path.join(dir, post.name);
    const line = refusals.find((l) => l.startsWith(`${file}: `));
    assert.ok(line !== undefined, `${post.name} refused:\n${result.stderr}`);
    assert.match(line.slice(file.length), REFUSAL);
  }
  assert.equal(refused.size, refusals.length, "one line a post");
  assert.ok(
    [...refused].every((name) => HOSTILE_POSTS.some((p) => p.name === name)),
    result.stderr,
  );
  // Not a timing test (BENCHMARKS-style figures are in the docs): a bound no parse left running would meet.
  assert.ok(seconds < 600, `took ${seconds} s`);
});
