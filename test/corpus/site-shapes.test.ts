// Docusaurus and Astro blogs read as their sites read them: ids, admonitions, tabs, mdx-code-blocks, dated slugs.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { UserError } from "../../src/common/errors.ts";
import { tempFileTree } from "../helpers/temp-folders.ts";
import { formatCorpusSummary, loadCorpus, summarizeCorpus, type Corpus } from "../../src/corpus/index.ts";
import { corpusFromFiles, corpusHash } from "../../src/corpus/load-corpus.ts";
import { parsePost } from "../../src/corpus/parse-post.ts";
import { detectSiteLayout, slugFromPath } from "../../src/corpus/site-layout.ts";

const fixtures = path.resolve(import.meta.dirname, "../fixtures");
const docusaurus = path.join(fixtures, "docusaurus-site", "blog");
const astro = path.join(fixtures, "astro-site", "src", "content", "blog");

const load = (dir: string): Promise<Corpus> => loadCorpus(dir, { note: () => {} });

const post = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}`;

/** Each way a site's markup could reach a section: the line it is on, or undefined when none does. */
function leftovers(text: string): string[] {
  const found: string[] = [];
  const lines = text.split("\n");
  let inCode = false;
  for (const line of lines) {
    const fence = /^(`{3,}|~{3,})/.test(line);
    if (!inCode) {
      if (/:::|\{#[\w-]+\}|\\\{|mdx-code-block|<\/?Tab|import |truncate/.test(line)) found.push(`markup: ${line}`);
      if (/^[ \t]+\S/.test(line)) found.push(`indented: ${line}`);
      if (/\S[ \t]*`{3,}/.test(line) && !/`{3,}.*`{3,}/.test(line)) found.push(`glued to a fence: ${line}`);
    }
    if (fence) inCode = !inCode;
  }
  return found;
}

test("a Docusaurus blog: no admonition marker, heading id, mdx-code-block or glued tab label in any section", async () => {
  const corpus = await load(docusaurus);
  assert.equal(corpus.sections.length, 14);
  for (const s of corpus.sections) {
    assert.deepEqual(leftovers(s.text), [], `${s.post} / ${s.heading}`);
    assert.doesNotMatch(s.heading, /\{|#|\\/, `${s.post} / ${s.heading}`);
  }
  const text = (slug: string, heading: string) => {
    const found = corpus.sections.find((s) => s.post === slug && s.heading === heading);
    assert.ok(found, `no section ${slug} / ${heading}`);
    return found.text;
  };
  assert.deepEqual(
    corpus.sections.filter((s) => s.post === "release-checklist").map((s) => s.heading),
    [
      "A release checklist that survives a Friday",
      "Freeze the branch",
      "Who may merge",
      "Tag and publish",
      "When the build breaks",
    ],
  );
  // Colons in prose are not directives: Docusaurus puts back the text of one it has no use for.
  assert.match(text("release-checklist", "Freeze the branch"), /a 3:1 ratio .* localhost:8080 .* note:this beside/s);
  assert.match(text("release-checklist", "Freeze the branch"), /\n\nThe freeze applies to the release branch only/);
  const tag = text("release-checklist", "Tag and publish");
  assert.match(tag, /^Tip: Sign the tag\n\nA signed tag proves/);
  assert.match(tag, /\n\nWarning: Never move a published tag\./);
  assert.match(tag, /\n\nCaution: Rollbacks are releases too\n\nA rollback gets/);
  assert.match(
    text("release-checklist", "When the build breaks"),
    /^Two kinds of breakage\n\nA flaky test .*\n\nDanger: Do not skip/s,
  );
  // Each tab's name on its own line, the fence it names on the next paragraph, at the margin.
  assert.match(
    text("package-managers", "Overrides"),
    /\n\nnpm\n\nnpm reads the `overrides` field\.\n\n```json\n\{\n {2}"overrides"[^\n]*\n\}\n```\n\nYarn\n\n```json\n/,
  );
  assert.match(text("package-managers", "Installing exactly"), /^pnpm\n\n```bash\n.*\n```\n\nbun\n\n```bash\n/s);
  const lockfile = text("package-managers", "What the lockfile records");
  assert.equal(lockfile.split("A lockfile entry with its integrity hash").length, 2, lockfile);
  assert.match(text("cache-headers", "Pages"), /\n\nWhy not a short max-age\n\nA page cached/);
  assert.match(text("cache-headers", "Fingerprinted assets"), /\n\nTip: Set `Cache-Control/);
});

test("a Docusaurus blog's slugs are the site's: the date of a name, a date folder or a page bundle dropped", async () => {
  const corpus = await load(docusaurus);
  assert.equal(corpus.slugRule, "docusaurus");
  assert.deepEqual(
    corpus.posts.map((p) => [p.slug, path.relative(docusaurus, p.file).split(path.sep).join("/")]),
    [
      ["release-checklist", "2024-01-15-release-checklist.mdx"],
      ["package-managers", "2024-02-01-package-managers.mdx"],
      ["image-pipeline", "2024-05-20-image-pipeline/index.md"],
      ["cache-headers", "2024/04/02/cache-headers.md"],
    ],
  );
});

test("sections --summary counts each Docusaurus form it read, and fits 120 columns", async () => {
  const summary = summarizeCorpus(await load(docusaurus), 800);
  const read: Record<string, number> = {};
  for (const p of summary.posts)
    for (const [kind, n] of Object.entries(p.siteSyntax)) read[kind] = (read[kind] ?? 0) + (n ?? 0);
  assert.deepEqual(read, {
    "heading id": 9,
    admonition: 9,
    "mdx-code-block": 4,
    "tab label": 4,
    "truncate marker": 2,
    "directive as text": 1,
  });
  const text = formatCorpusSummary(summary);
  assert.match(
    text,
    /\nread as the site reads it: heading id 9, truncate marker 2, directive as text 1, admonition 9, mdx-code-block 4, tab label 4\n/,
  );
  assert.match(text, /attribute prose kept as text: <TabItem label> 2, <TabItem value> 2, <img alt> 1\n/);
});

test("the summary cuts a long heading, then long slugs and files, to fit 120 columns", () => {
  const long = "a-very-long-slug-that-a-dated-post-might-have-when-its-title-is-a-sentence";
  const corpus = corpusFromFiles("blog", [
    {
      name: `2024-10-23-${long}.mdx`,
      bytes: Buffer.from(post("T", `Intro.\n\n## ${"A heading of many words ".repeat(6)}\n\nText of the section.\n`)),
    },
  ]);
  const lines = formatCorpusSummary(summarizeCorpus(corpus, 800)).split("\n");
  for (const line of lines) assert.ok(line.length <= 120, `${line.length}: ${line}`);
  const row = lines.find((l) => l.startsWith("2024-10-23-a-very"));
  assert.ok(row, lines.join("\n"));
  // The heading is cut to 24 characters first, then both long names in their middle, to one width.
  assert.match(row, /^2024-10-23-a-very-…itle-is-a-sentence {2}2024-10-23-a-very-…is-a-sentence\.mdx {6}1 {2}0/);
  assert.match(row, /1 {2}0 {3}1 {4}0 {2}4 words: A heading of m…$/);
});

test("an Astro content collection: frontmatter slug wins, subfolders and .md/.mdx read, JSX children at the margin", async () => {
  const corpus = await load(astro);
  assert.equal(corpus.slugRule, "file-name");
  assert.deepEqual(
    corpus.posts.map((p) => p.slug),
    ["first-light", "dark-adaptation", "star-hopping-guide"],
  );
  assert.deepEqual(corpus.leftOut, [{ file: "comet-notes.md", reason: "draft: true" }]);
  for (const s of corpus.sections) assert.deepEqual(leftovers(s.text), [], `${s.post} / ${s.heading}`);
  const finder = corpus.sections.find((s) => s.heading === "Measure your finder");
  assert.equal(
    finder?.text,
    "Point at two stars whose distance you know and count how many fields separate them.\n\n" +
      "A field of view in degrees\n\nA 6x30 finder shows about seven degrees:\na fist at arm's length is ten.",
  );
});

test("the site is told by its layout: authors.yml beside the posts, or a docusaurus config up to two folders up", async (t) => {
  const body = post("Dated", "Text.\n");
  const bare = tempFileTree(t, { "2024-01-02-dated.md": body });
  const authors = tempFileTree(t, { "authors.yml": "a:\n  name: A\n", "2024-01-02-dated.md": body });
  const config = tempFileTree(t, { "docusaurus.config.js": "", "website/blog/2024-01-02-dated.md": body });
  assert.deepEqual(await detectSiteLayout(bare), { slugRule: "file-name", evidence: undefined });
  assert.equal((await detectSiteLayout(authors)).slugRule, "docusaurus");
  assert.equal((await detectSiteLayout(path.join(config, "website", "blog"))).slugRule, "docusaurus");
  assert.equal((await load(bare)).posts[0]!.slug, "2024-01-02-dated");
  assert.equal((await load(authors)).posts[0]!.slug, "dated");
  assert.equal((await load(path.join(config, "website", "blog"))).posts[0]!.slug, "dated");
  // The rule changes the slugs, so it changes what caches and manifests key on.
  const files = [{ name: "2024-01-02-dated.md", bytes: Buffer.from(body) }];
  assert.notEqual(corpusHash(files), corpusHash(files, undefined, undefined, "docusaurus"));
  assert.equal(corpusHash(files), corpusHash(files, undefined, undefined, "file-name"));
});

test("Docusaurus's date rule: names, folders, bundles; a frontmatter slug still wins", () => {
  const cases: [string, string][] = [
    ["blog/2024-10-23-the-new-architecture-is-here.mdx", "the-new-architecture-is-here"],
    ["blog/2024-01-01-name/index.md", "name"],
    ["blog/2024/01/01/name.md", "name"],
    ["blog/2024/01/01/name/index.mdx", "name"],
    ["blog/2024/1-5-name.md", "name"],
    ["blog/2024-01-01.md", "2024-01-01"],
    ["blog/releases/3.1/index.mdx", "3.1"],
    ["C:\\site\\blog\\2024-01-01-win.md", "win"],
    ["blog/v2024-01-01-not-a-date.md", "v2024-01-01-not-a-date"],
  ];
  for (const [file, slug] of cases) assert.equal(slugFromPath(file, "docusaurus"), slug, file);
  assert.equal(slugFromPath("blog/2024-01-01-name.md"), "2024-01-01-name");
  const parsed = parsePost("blog/2024-01-01-name.md", Buffer.from(post("T\nslug: /blog/own", "Text.\n")), {
    slugRule: "docusaurus",
  });
  assert.equal(parsed.kind === "post" && parsed.post.slug, "own");
});

test("two dated posts of one name clash as any two slugs do", async (t) => {
  const dir = tempFileTree(t, {
    "authors.yml": "",
    "2023-05-01-changelog-notes.md": post("Old", "Text.\n"),
    "2024-05-01-changelog-notes.md": post("New", "Text.\n"),
  });
  const error = await load(dir).then(
    () => assert.fail("expected a refusal"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof UserError);
  assert.match(
    error.message,
    /2023-05-01-changelog-notes\.md: slug "changelog-notes" is also the slug of .*2024-05-01/,
  );
});

test("a heading id is read in MDX as in .md, never inside code, and later lines keep their numbers", () => {
  const mdx = post(
    "Ids",
    "## Setup {#setup}\n\nText.\n\n```md\n## In code {#kept}\n```\n\n### Deeper {#deeper} ###\n\nMore.\n\n<Broken\n",
  );
  const refused = parsePost("ids.mdx", Buffer.from(mdx));
  assert.equal(refused.kind, "problems");
  // The frontmatter is 3 lines, a blank line, then the body: `<Broken` is the file's line 17.
  assert.match(refused.kind === "problems" ? String(refused.problems[0]!.line) : "", /^1[78]$/);
  const fine = parsePost("ids.mdx", Buffer.from(mdx.replace("<Broken\n", "")));
  assert.equal(fine.kind, "post");
  if (fine.kind !== "post") return;
  assert.deepEqual(
    fine.post.sections.map((s) => [s.heading, s.text]),
    [
      ["Setup", "Text.\n\n```md\n## In code {#kept}\n```"],
      ["Deeper", "More."],
    ],
  );
  assert.equal(fine.post.siteSyntax["heading id"], 2);
  const md = parsePost("ids.md", Buffer.from(post("Ids", "## Setup {#setup}\n\nText.\n")));
  assert.equal(md.kind === "post" && md.post.sections[0]!.heading, "Setup");
});

test("an mdx-code-block in a .md post stays code, and admonitions read in .md too", () => {
  const md = post("Md", "```mdx-code-block\nimport X from 'x';\n```\n\n:::tip[Short]\nBody.\n:::\n");
  const parsed = parsePost("a.md", Buffer.from(md));
  assert.equal(parsed.kind, "post");
  if (parsed.kind !== "post") return;
  assert.equal(parsed.post.sections[0]!.text, "```mdx-code-block\nimport X from 'x';\n```\n\nTip: Short\n\nBody.");
});
