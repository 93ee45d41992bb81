// Bad blogs give one clear error naming every bad file and line, and one bad post does not hide the others.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { UserError } from "../../src/common/errors.ts";
import { loadCorpus } from "../../src/corpus/index.ts";

const GOOD = "---\ntitle: Good\n---\n\nIntro.\n\n## A heading\n\nBody.\n";

/** Writes `files` into a fresh temp folder, loads it, and returns the UserError's message. */
async function errorFor(files: Record<string, string | Uint8Array>): Promise<{ dir: string; message: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-bad-"));
  try {
    for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body);
    const error = await loadCorpus(dir).then(
      () => assert.fail("expected loadCorpus to throw"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof UserError, String(error));
    return { dir, message: error.message };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("unterminated frontmatter names the file and line 1", async () => {
  const { dir, message } = await errorFor({ "open.mdx": "---\ntitle: Open\n\n## Heading\n\nBody.\n" });
  assert.match(
    message,
    new RegExp(`${path.join(dir, "open.mdx").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1: frontmatter .*never closed`),
  );
});

test("a file that is not UTF-8 names the line of the first bad byte", async () => {
  const bytes = Buffer.concat([
    Buffer.from("---\ntitle: Latin\n---\n\nIntro.\n\n## Caf"),
    Buffer.from([0xe9]),
    Buffer.from("\n\nBody.\n"),
  ]);
  const { message } = await errorFor({ "latin1.mdx": bytes });
  assert.match(message, /latin1\.mdx:7: file is not valid UTF-8/);
});

test("an empty content folder, and a missing one, say so and name the folder", async () => {
  const { dir, message } = await errorFor({ "notes.txt": "not a post" });
  assert.ok(message.startsWith(dir), message);
  assert.match(message, /no \.mdx or \.md posts/);
  const missing = path.join(os.tmpdir(), "blogqa-no-such-folder-xyz");
  await assert.rejects(
    loadCorpus(missing),
    (e: unknown) => e instanceof UserError && e.message.includes(missing) && /not found/.test(e.message),
  );
});

test("invalid YAML names the file line of the YAML error", async () => {
  const { message } = await errorFor({ "yaml.mdx": "---\ntitle: Fine\ntags: [a, b\n---\n\nBody.\n" });
  assert.match(message, /yaml\.mdx:4: frontmatter is not valid YAML/);
});

test("a post without a title, an unclosed fence or comment, a post MDX refuses: each named with its line", async () => {
  const { message } = await errorFor({
    "a-no-title.mdx": "---\ndescription: x\n---\n\nBody.\n",
    "b-fence.mdx": "---\ntitle: F\n---\n\nIntro.\n\n```python\n# code\n\n## Swallowed\n",
    "c-comment.mdx": "---\ntitle: C\n---\n\nIntro.\n\n<!-- start\n\n## Hidden\n",
    "c-refused.mdx": "---\ntitle: C\n---\n\nIntro.\n\n<Note>never closed\n\n## After\n",
    "d-good.mdx": GOOD,
    "e-empty-heading.mdx": "---\ntitle: E\n---\n\nIntro.\n\n## <Badge />\n\nBody.\n\n##\n",
  });
  const lines = message.split("\n");
  assert.match(lines[0]!, /cannot read the blog: 6 problems/);
  assert.match(lines[1]!, /a-no-title\.mdx:1: frontmatter has no title/);
  assert.match(lines[2]!, /b-fence\.mdx:7: code fence ``` is never closed/);
  assert.match(lines[3]!, /c-comment\.mdx:7: comment is never closed/);
  // A post MDX's parser refuses is one line: where (line and column) and the parser's reason, no stack.
  assert.equal(
    lines[4]!.replace(/^.*\//, ""),
    "c-refused.mdx:7:1: MDX parser: Expected a closing tag for `<Note>` (7:1-7:7) before the end of `paragraph`",
  );
  assert.match(lines[5]!, /e-empty-heading\.mdx:7: heading "<Badge \/>" has no text/);
  assert.match(lines[6]!, /e-empty-heading\.mdx:11: heading has no text/);
  assert.equal(lines.length, 7);
});

test("files that are not markdown and empty subfolders are ignored; a README is left out with a note", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-ok-"));
  try {
    writeFileSync(path.join(dir, "good.mdx"), GOOD);
    writeFileSync(path.join(dir, "README.md"), "# not a post");
    writeFileSync(path.join(dir, "notes.txt"), "# not a post either");
    mkdirSync(path.join(dir, "drafts.mdx"));
    const notes: string[] = [];
    const corpus = await loadCorpus(dir, { note: (line) => notes.push(line) });
    assert.deepEqual(
      corpus.posts.map((p) => p.slug),
      ["good"],
    );
    assert.deepEqual(notes, [`note: ${dir}: left out 1 file: README.md (a README, not a post)`]);
    assert.equal(corpus.sections.length, 2);
    assert.match(corpus.hash, /^[0-9a-f]{64}$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
