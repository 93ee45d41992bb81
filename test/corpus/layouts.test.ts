// Blogs laid out as real ones are: series folders, page bundles, .md, frontmatter slugs, drafts, `#`, symlinks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";
import { UserError } from "../../src/common/errors.ts";
import { tempFileTree } from "../helpers/temp-folders.ts";
import { loadCorpus, type Corpus, type Post } from "../../src/corpus/index.ts";
import { parsePost } from "../../src/corpus/parse-post.ts";
import { slugFromPath } from "../../src/corpus/site-layout.ts";

const blog = path.resolve(import.meta.dirname, "../fixtures/layouts/blog");

async function load(dir: string): Promise<{ corpus: Corpus; notes: string[] }> {
  const notes: string[] = [];
  const corpus = await loadCorpus(dir, { note: (line) => notes.push(line) });
  return { corpus, notes };
}

const post = (corpus: Corpus, slug: string): Post => {
  const found = corpus.posts.find((p) => p.slug === slug);
  assert.ok(found, `no post "${slug}" in ${corpus.posts.map((p) => p.slug).join(", ")}`);
  return found;
};

const postText = (title: string, extra = "") =>
  `---\ntitle: ${title}\n${extra}---\n\nIntro.\n\n## A heading\n\nBody.\n`;

async function loadError(dir: string): Promise<string> {
  const error = await loadCorpus(dir, { note: () => {} }).then(
    () => assert.fail("expected loadCorpus to throw"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof UserError, String(error));
  return error.message;
}

test("posts in series folders, page bundles and .md files are all found, in byte order of path", async () => {
  const { corpus } = await load(blog);
  assert.deepEqual(
    corpus.posts.map((p) => [p.slug, path.relative(blog, p.file)]),
    [
      ["rust-ownership", path.join("2024", "rust-ownership", "index.mdx")],
      ["1-git-intro", path.join("git-guide-series", "1-git-intro.mdx")],
      ["2-git-branches", path.join("git-guide-series", "2-git-branches.mdx")],
      ["hugo-style-notes", "hugo-style-notes.md"],
      ["renamed-post", "old-name.mdx"],
    ],
  );
  assert.ok(corpus.sections.every((s) => corpus.posts.some((p) => p.slug === s.post)));
});

test("drafts, Hugo's _index.md and a README are left out, named in one note with the reason", async () => {
  const { corpus, notes } = await load(blog);
  assert.deepEqual(corpus.leftOut, [
    { file: "README.md", reason: "a README, not a post" },
    { file: "_index.md", reason: "a name starting with _ marks a partial or a list page" },
    { file: "wip-post.mdx", reason: "draft: true" },
  ]);
  assert.equal(notes.length, 1);
  assert.equal(
    notes[0],
    `note: ${blog}: left out 3 files: README.md (a README, not a post), ` +
      "_index.md (a name starting with _ marks a partial or a list page), wip-post.mdx (draft: true)",
  );
});

test("a blog with nothing to leave out gets no note", async () => {
  const { notes } = await load(path.resolve(import.meta.dirname, "../fixtures/blog/posts"));
  assert.deepEqual(notes, []);
});

test("`#` headings are sections one level above ##, and fenced lines starting with # stay code", async () => {
  const { corpus } = await load(blog);
  const intro = post(corpus, "1-git-intro");
  assert.deepEqual(
    intro.sections.map((s) => [s.level, s.heading]),
    [
      [1, "Git Guide, Part 1: What Git Keeps"],
      [1, "The object store"],
      [2, "Blobs are content only"],
      [1, "Refs and branches"],
      [2, "Where refs live"],
    ],
  );
  const store = intro.sections[1]!.text;
  assert.match(store, /^# list what a commit points to$/m);
  assert.match(store, /^# the tree it names$/m);
  assert.match(intro.sections[2]!.text, /#git tags like this one are prose/);
  assert.match(intro.sections[4]!.text, /^# packed-refs with peeled tags$/m);
  assert.doesNotMatch(intro.sections[0]!.text, /import/);
});

test("a first # heading that repeats the title is the title, not a new section; a later one is a section", async () => {
  const { corpus } = await load(blog);
  const branches = post(corpus, "2-git-branches");
  assert.deepEqual(
    branches.sections.map((s) => [s.level, s.heading]),
    [
      [1, "Git Guide, Part 2: Branches"],
      [1, "Merging"],
      [2, "Fast-forward"],
      [1, "Rebasing"],
      [3, "The reflog keeps the old ones"],
    ],
  );
  assert.match(branches.sections[0]!.text, /^Part 1 showed that a branch/);
  assert.match(branches.sections[4]!.text, /^# find the commit you had before the rebase$/m);

  // Text before the repeated title joins the same section; case and markup do not matter; only the first heading.
  const parsed = parsePost(
    "p/x.mdx",
    Buffer.from("---\ntitle: Hello World\n---\nBefore.\n\n# *hello* world\n\nAfter.\n\n# Hello World\n\nAgain.\n"),
  );
  assert.ok(parsed.kind === "post");
  assert.deepEqual(
    parsed.post.sections.map((s) => [s.level, s.heading, s.text]),
    [
      [1, "Hello World", "Before.\n\nAfter."],
      [1, "Hello World (2)", "Again."],
    ],
  );
  // A first heading at ## that repeats the title stays a section, as it always has.
  const h2 = parsePost("p/y.mdx", Buffer.from("---\ntitle: Same\n---\n\n## Same\n\nBody.\n"));
  assert.ok(h2.kind === "post");
  assert.deepEqual(
    h2.post.sections.map((s) => [s.level, s.heading]),
    [[2, "Same"]],
  );
  // An empty # line is a heading with no text, like an empty ##.
  const empty = parsePost("p/z.mdx", Buffer.from("---\ntitle: Z\n---\n\nIntro.\n\n#\n"));
  assert.ok(empty.kind === "problems");
  assert.deepEqual(empty.problems, [{ file: "p/z.mdx", line: 7, message: "heading has no text" }]);
});

test("in a .md post a paragraph starting with import or export is prose; in .mdx it is MDX's JavaScript", () => {
  // MDX reads the paragraph as JavaScript, and "export PATH first" is none: the parser refuses it where it starts.
  const body = "---\ntitle: Shell\n---\n\nexport PATH first, then run it.\n\nimport { x } from 'y';\n";
  const md = parsePost("b/shell.md", Buffer.from(body));
  const mdx = parsePost("b/shell.mdx", Buffer.from(body));
  assert.ok(md.kind === "post" && mdx.kind === "problems");
  assert.equal(md.post.sections[0]!.text, "export PATH first, then run it.\n\nimport { x } from 'y';");
  assert.deepEqual(
    mdx.problems.map((p) => [p.line, p.column, p.message]),
    [[5, 8, "MDX parser: Could not parse import/exports with acorn"]],
  );
  const esm = parsePost("b/esm.mdx", Buffer.from("---\ntitle: E\n---\n\nimport { x } from 'y';\n\nText.\n"));
  assert.ok(esm.kind === "post");
  assert.equal(esm.post.sections[0]!.text, "Text.");
});

test("the slug: the file name, a page bundle's folder, or the frontmatter's slug (its last part)", async () => {
  assert.equal(slugFromPath("blog/git-guide-series/1-git-intro.mdx"), "1-git-intro");
  assert.equal(slugFromPath("blog/notes.md"), "notes");
  assert.equal(slugFromPath("blog/2024/rust-ownership/index.mdx"), "rust-ownership");
  assert.equal(slugFromPath("C:\\blog\\my-post\\index.md"), "my-post");
  const { corpus } = await load(blog);
  assert.equal(post(corpus, "renamed-post").title, "A Post That Chose Its Own Slug");
  const plain = parsePost("b/a.mdx", Buffer.from(postText("A", "slug: plain-name\n")));
  assert.ok(plain.kind === "post");
  assert.equal(plain.post.slug, "plain-name");
  assert.ok(plain.post.sections.every((s) => s.post === "plain-name"));
  const number = parsePost("b/a.mdx", Buffer.from(postText("A", "slug: 3.10\n")));
  assert.ok(number.kind === "problems");
  assert.deepEqual(number.problems, [
    { file: "b/a.mdx", line: 1, message: "frontmatter slug is not a string (YAML read 3.1): put it in quotes" },
  ]);
  const empty = parsePost("b/a.mdx", Buffer.from(postText("A", 'slug: "/ /"\n')));
  assert.ok(empty.kind === "problems");
  assert.match(empty.problems[0]!.message, /frontmatter slug names nothing/);
});

test("Hugo's TOML frontmatter is named as such, not reported as a missing title", () => {
  const toml = parsePost("b/t.md", Buffer.from('+++\ntitle = "T"\n+++\n\nBody.\n'));
  assert.ok(toml.kind === "problems");
  assert.deepEqual(toml.problems, [
    {
      file: "b/t.md",
      line: 1,
      message: "frontmatter between +++ lines is TOML, which is not read: write it as YAML between --- lines",
    },
  ]);
});

test("published: false is left out like a draft; draft: false is read", async (t) => {
  const dir = tempFileTree(t, {
    "a.mdx": postText("A", "draft: false\n"),
    "b.mdx": postText("B", "published: false\n"),
    "c.mdx": postText("C", "published: true\n"),
  });
  const { corpus, notes } = await load(dir);
  assert.deepEqual(
    corpus.posts.map((p) => p.slug),
    ["a", "c"],
  );
  assert.deepEqual(corpus.leftOut, [{ file: "b.mdx", reason: "published: false" }]);
  assert.equal(notes.length, 1);
});

test("a slug inside another slug is refused, naming both files", async (t) => {
  const dir = tempFileTree(t, { "cache.mdx": postText("Cache"), "kv-cache.mdx": postText("KV cache") });
  const message = await loadError(dir);
  assert.equal(
    message,
    `${dir}: cannot read the blog: 1 problem\n${path.join(dir, "cache.mdx")}: slug "cache" is inside slug "kv-cache" of ` +
      `${path.join(dir, "kv-cache.mdx")}, so a citation of either would name both; answers cite slugs: rename one file, ` +
      "or give one a frontmatter slug",
  );
});

test("two posts with one slug are refused, naming both paths: series folders, bundles and frontmatter slugs alike", async (t) => {
  const dir = tempFileTree(t, {
    "series-a/1-intro.mdx": postText("A"),
    "series-b/1-intro.mdx": postText("B"),
    "bundle/index.mdx": postText("Bundle"),
    "bundle.md": postText("Bundle too"),
    "x.mdx": postText("X", "slug: shared\n"),
    "y.mdx": postText("Y", "slug: /posts/shared/\n"),
  });
  const lines = (await loadError(dir)).split("\n");
  assert.equal(lines[0], `${dir}: cannot read the blog: 3 problems`);
  const fix = "; answers cite slugs: rename one file, or give one a frontmatter slug";
  assert.deepEqual(lines.slice(1).sort(), [
    `${path.join(dir, "bundle.md")}: slug "bundle" is also the slug of ${path.join(dir, "bundle/index.mdx")}${fix}`,
    `${path.join(dir, "series-a/1-intro.mdx")}: slug "1-intro" is also the slug of ${path.join(dir, "series-b/1-intro.mdx")}${fix}`,
    `${path.join(dir, "x.mdx")}: slug "shared" is also the slug of ${path.join(dir, "y.mdx")}${fix}`,
  ]);
});

test("a symlinked post is followed; a second path to a post already read, a loop and a dangling link are noted", async (t) => {
  const dir = tempFileTree(t, {
    "own.mdx": postText("Own"),
    "series/part.mdx": postText("Part"),
    ".shared/shared-post.mdx": postText("Shared"),
  });
  symlinkSync(path.join(dir, ".shared", "shared-post.mdx"), path.join(dir, "linked.mdx"));
  symlinkSync(path.join(dir, "own.mdx"), path.join(dir, "again.mdx"));
  symlinkSync("loop-b.mdx", path.join(dir, "loop-a.mdx"));
  symlinkSync("loop-a.mdx", path.join(dir, "loop-b.mdx"));
  symlinkSync("missing.mdx", path.join(dir, "gone.mdx"));
  symlinkSync("..", path.join(dir, "series", "up"));
  symlinkSync("nowhere.png", path.join(dir, "cover.png"));
  const { corpus, notes } = await load(dir);
  assert.deepEqual(
    corpus.posts.map((p) => [p.slug, path.relative(dir, p.file)]),
    [
      ["linked", "linked.mdx"],
      ["own", "own.mdx"],
      ["part", path.join("series", "part.mdx")],
    ],
  );
  assert.match(post(corpus, "linked").sections[0]!.heading, /^Shared$/);
  assert.deepEqual(corpus.leftOut, [
    { file: "again.mdx", reason: "the same file as own.mdx" },
    { file: "gone.mdx", reason: "a symlink to nothing (its target is missing)" },
    { file: "loop-a.mdx", reason: "a symlink loop" },
    { file: "loop-b.mdx", reason: "a symlink loop" },
    { file: "series/up", reason: "a symlink loop (it leads back to a folder above it)" },
  ]);
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /left out 5 files: again\.mdx \(the same file as own\.mdx\), gone\.mdx/);
});

test("a symlink out of the content folder is not followed, and the note names it and its target", async (t) => {
  const outside = tempFileTree(t, { "shared-post.mdx": postText("Shared"), "more/other.mdx": postText("Other") });
  const dir = tempFileTree(t, { "own.mdx": postText("Own") });
  symlinkSync(path.join(outside, "shared-post.mdx"), path.join(dir, "linked.mdx"));
  symlinkSync(path.join(outside, "more"), path.join(dir, "more"));
  symlinkSync("/", path.join(dir, "root"));
  symlinkSync(path.join(outside, "nowhere.png"), path.join(dir, "cover.png"));
  const { corpus, notes } = await load(dir);
  assert.deepEqual(
    corpus.posts.map((p) => p.slug),
    ["own"],
  );
  const real = realpathSync(outside);
  assert.deepEqual(corpus.leftOut, [
    {
      file: "linked.mdx",
      reason: `a symlink to ${path.join(real, "shared-post.mdx")}, outside the content folder: not followed`,
    },
    { file: "more", reason: `a symlink to ${path.join(real, "more")}, outside the content folder: not followed` },
    { file: "root", reason: "a symlink to /, outside the content folder: not followed" },
  ]);
  assert.equal(notes.length, 1);
  assert.match(
    notes[0]!,
    /: left out 3 files: linked\.mdx \(a symlink to .*\), more \(.*\), root \(a symlink to \/, outside/,
  );
});

test("a content folder reached through a symlink reads the links inside it", async (t) => {
  const real = tempFileTree(t, { "own.mdx": postText("Own"), ".drafts/kept.mdx": postText("Kept") });
  symlinkSync(path.join(real, ".drafts", "kept.mdx"), path.join(real, "kept.mdx"));
  const parent = tempFileTree(t, {});
  symlinkSync(real, path.join(parent, "blog"));
  const { corpus } = await load(path.join(parent, "blog"));
  assert.deepEqual(
    corpus.posts.map((p) => p.slug),
    ["kept", "own"],
  );
  assert.deepEqual(corpus.leftOut, []);
});

test("a post that cannot be read is an error naming it, not a silent gap", async (t) => {
  const dir = tempFileTree(t, { "ok.mdx": postText("Ok"), "locked.mdx": postText("Locked") });
  // Root reads every file whatever its mode, and a link to a file that fails to read (/proc/self/mem) leaves the
  // folder, so it is not followed.
  if (process.getuid?.() === 0) return t.skip("root reads every file whatever its mode");
  chmodSync(path.join(dir, "locked.mdx"), 0o000);
  const lines = (await loadError(dir)).split("\n");
  assert.equal(lines[0], `${dir}: cannot read the blog: 1 problem`);
  const file = path.join(dir, "locked.mdx");
  assert.ok(lines[1]!.startsWith(`${file}: post cannot be read (`), lines[1]);
  assert.match(lines[1]!.slice(file.length), /^: post cannot be read \(EACCES\): make it readable or move it out$/);
  assert.equal(lines.length, 2);
});

test("a folder of drafts only says there is no post, and what was left out", async (t) => {
  const dir = tempFileTree(t, { "a.mdx": postText("A", "draft: true\n") });
  assert.match(
    await loadError(dir),
    /no \.mdx or \.md posts in this folder or under it \(1 left out: a\.mdx \(draft: true\)\)/,
  );
});
