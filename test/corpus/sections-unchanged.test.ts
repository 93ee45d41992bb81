// Our own blog and the fixture blog split exactly as they did before the loader learned other blogs' layouts.
// test/fixtures/sections-snapshot.json holds, per folder, the sha256 of each post file and of the sections the
// loader of commit 0066400 (the study's splitter: `##` and `###`, flat `.mdx` folders) gave for it, as `sections`
// prints them; test/helpers/write-sections-snapshot.ts writes it again after the posts change.
// One entry is today's loader's, deliberately: kitchen-sink.mdx (and so the fixture folder's whole output) since
// prose attributes are kept (its Figure caption is now text; still 15 sections). Our own blog has no empty
// heading and no prose attribute, so its 430 sections are the study splitter's still.
// A post edited since has no snapshot to compare with; the second test checks that none of the rules the loader
// gained applies to the folder, which is what makes its output the study splitter's.
// Today's loader reads posts with the MDX toolchain's parser; its `studyText` mode (code without fence lines, links
// and images as markdown) is what is compared with the snapshot. The default text differs from it deliberately in
// those two ways only, which the third test checks section by section.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadCorpus, type Section } from "../../src/corpus/index.ts";
import { cleanHeading } from "../../src/corpus/clean-heading.ts";
import { repoRoot } from "../helpers/run-cli.ts";

interface FolderSnapshot {
  readonly corpusHash: string;
  readonly sectionsOutput: string;
  readonly sectionCount: number;
  readonly posts: Readonly<Record<string, { readonly bytes: string; readonly sections: string }>>;
}

const snapshot = JSON.parse(
  readFileSync(path.join(repoRoot, "test/fixtures/sections-snapshot.json"), "utf8"),
) as Record<string, FolderSnapshot>;
const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
/** Exactly the bytes `sections` prints for these sections. */
const printed = (sections: readonly Section[]) => sections.map((s) => `${JSON.stringify(s)}\n`).join("");

for (const [folder, before] of Object.entries(snapshot)) {
  test(`${folder}: every post unchanged since the snapshot gives the same sections, byte for byte`, async (t) => {
    const corpus = await loadCorpus(path.join(repoRoot, folder), { studyText: true });
    let same = 0;
    for (const post of corpus.posts) {
      const recorded = before.posts[path.basename(post.file)];
      if (recorded === undefined || recorded.bytes !== sha256(readFileSync(post.file))) continue;
      same += 1;
      assert.equal(sha256(printed(post.sections)), recorded.sections, `${post.file}: its sections changed`);
    }
    t.diagnostic(`${same} of ${corpus.posts.length} posts unchanged since the snapshot`);
    if (same === corpus.posts.length && same === Object.keys(before.posts).length) {
      // The folder as a whole is the one snapshotted: the whole output and the hash that keys caches agree too.
      assert.equal(corpus.hash, before.corpusHash);
      assert.equal(corpus.sections.length, before.sectionCount);
      assert.equal(sha256(printed(corpus.sections)), before.sectionsOutput);
    }
  });

  test(`${folder}: is read by none of the rules added for other blogs, so its edited posts split as before too`, async () => {
    // What the loader does beyond the study's splitter: `#` headings (and a first one repeating the title), slugs
    // from frontmatter or a bundle's folder, drafts, files in subfolders or named .md. None may apply here.
    const notes: string[] = [];
    const corpus = await loadCorpus(path.join(repoRoot, folder), { note: (line) => notes.push(line) });
    assert.deepEqual(notes, []);
    assert.deepEqual(corpus.leftOut, []);
    const stray = corpus.posts.flatMap((post) =>
      post.sections
        .filter((s, i) => s.level === 1 && (i > 0 || s.heading !== cleanHeading(post.title)))
        .map((s) => `${post.slug}: # ${s.heading}`),
    );
    assert.deepEqual(stray, []);
    for (const post of corpus.posts) {
      assert.equal(path.dirname(post.file), path.join(repoRoot, folder));
      assert.equal(`${post.slug}.mdx`, path.basename(post.file));
      assert.deepEqual(
        ["slug", "draft", "published"].filter((key) => key in post.frontmatter),
        [],
        post.file,
      );
    }
  });

  test(`${folder}: the default text is the study's with fences kept and links read as their text, nothing else`, async () => {
    const study = await loadCorpus(path.join(repoRoot, folder), { studyText: true, note: () => {} });
    const today = await loadCorpus(path.join(repoRoot, folder), { note: () => {} });
    const names = (c: typeof today) => c.sections.map((s) => [s.post, s.heading, s.level]);
    assert.deepEqual(names(today), names(study));
    let changed = 0;
    today.sections.forEach((section, i) => {
      const before = study.sections[i]!.text;
      if (section.text === before) return;
      changed += 1;
      // Fence lines dropped from today's text, and links and images read as their text in the study's prose
      // (outside code, which both keep as written), must give the same text.
      const noFences = section.text.replace(/^[ \t]*(?:`{3,}|~{3,}).*\n?/gm, "");
      const code = new Set(noFences.split("\n"));
      const asText = before
        .split("\n")
        .map((line) => (code.has(line) ? line : line.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")))
        .join("\n");
      assert.equal(
        noFences.replace(/\n{3,}/g, "\n\n").trim(),
        asText.replace(/\n{3,}/g, "\n\n").trim(),
        `${section.post}: ${section.heading}`,
      );
    });
    assert.ok(changed > 0 || !/```|\]\(/.test(study.sections.map((s) => s.text).join("\n")), "a change was expected");
  });
}
