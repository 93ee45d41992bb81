// A user's blog in the shapes real ones have: parents followed by subheadings, prose in JSX attributes.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { formatCorpusSummary, loadCorpus, summarizeCorpus } from "../../src/corpus/index.ts";
import { stripTagsKeepingProse } from "../../src/corpus/jsx-tags.ts";
import { buildBm25 } from "../../src/search/bm25.ts";

const blog = path.resolve(import.meta.dirname, "../fixtures/own-blog/posts");

test("a heading followed directly by its subheading is not indexed, and the summary names it", async () => {
  const corpus = await loadCorpus(blog, { note: () => {} });
  assert.deepEqual(
    corpus.sections.filter((s) => s.text.trim() === "").map((s) => `${s.post}: ${s.heading}`),
    [],
  );
  const gcs = corpus.posts.find((p) => p.slug === "gcs-uploads")!;
  assert.deepEqual(gcs.emptyHeadings, ["Storage", "Implementation"]);
  assert.deepEqual(
    gcs.sections.map((s) => s.heading),
    [
      "Moving files to the cloud from a small service",
      "Uploading a file to Google Cloud Storage",
      "Deleting old reports",
      "The upload worker",
    ],
  );
  const text = formatCorpusSummary(summarizeCorpus(corpus, 300));
  assert.match(text, /^\S+: 6 posts, 17 sections \(intro 2, # 0, ## 2, ### 13\), 9 empty headings not indexed, /);
  assert.match(text, /\n {2}gcs-uploads: Storage \| Implementation\n/);
  assert.match(text, /\n {2}rust-lifetimes: Borrowing \| Lifetimes \| Elision rules\n/);
});

test("the empty parent no longer outranks the section that answers, and no snippet is empty", async () => {
  const corpus = await loadCorpus(blog, { note: () => {} });
  const index = buildBm25(corpus.sections);
  const top = corpus.sections[index.rank("uploading a file to Google Cloud Storage")[0]!]!;
  assert.equal(top.heading, "Uploading a file to Google Cloud Storage");
  const implementation = index.rank("Implementation").map((i) => corpus.sections[i]!);
  assert.ok(implementation.every((s) => s.text !== ""));
});

test("prose in text, caption, title, alt and label attributes is kept, searchable, and listed", async () => {
  const corpus = await loadCorpus(blog, { note: () => {} });
  const index = buildBm25(corpus.sections);
  const find = (query: string) => corpus.sections[index.rank(query)[0]!]!;
  assert.equal(
    find("grant the service account only object creation").heading,
    "Uploading a file to Google Cloud Storage",
  );
  assert.equal(find("persists across connections").heading, "Write-ahead logging");
  assert.equal(find("compiler fills in the same lifetime").heading, "One input reference");
  assert.equal(find("cache hits on the dependency layer").heading, "Dependencies before source");
  const worker = corpus.sections.find((s) => s.heading === "The upload worker")!;
  assert.match(worker.text, /\n\nQueue, worker and bucket: the worker never blocks the web request\.$/);
  const text = formatCorpusSummary(summarizeCorpus(corpus, 300));
  assert.match(
    text,
    /\nattribute prose kept as text: <img alt> 1, <Highlight text> 2, <Caption text> 1, <Callout title> 1, <Tab label> 1, <Figure caption> 1\n/,
  );
});

test("attribute prose: markup inside stripped cleanly, other attributes and expressions dropped, words spaced", () => {
  const keep = (text: string, names = ["text", "caption", "alt"]) => stripTagsKeepingProse(text, names);
  assert.equal(keep('<Caption text="Flow: <div>a <b>b</b></div> then c" />').text, "Flow: a b then c");
  assert.equal(keep('<Figure src="x.png" caption={"Two\\nlines \\"quoted\\""} />').text, 'Two lines "quoted"');
  assert.equal(keep("<Note text={`plain template`} />").text, "");
  assert.equal(keep("<Chart data={points} text={label} />").text, "");
  assert.equal(keep('see<Highlight text="this"/>now').text, "see this now");
  assert.equal(keep('<Box type="tip" label="not kept">child</Box>').text, "child");
  assert.equal(keep('`<Highlight text="code" />` stays').text, '`<Highlight text="code" />` stays');
  assert.deepEqual(keep('<A text="one" alt="two" /></A>').kept, [
    { tag: "A", attribute: "text" },
    { tag: "A", attribute: "alt" },
  ]);
  assert.equal(keep('<Highlight text="kept" />', []).text, "");
});

test("a different attribute list changes the sections and so the corpus hash; the default hash is the files'", async () => {
  const standard = await loadCorpus(blog, { note: () => {} });
  const fewer = await loadCorpus(blog, { note: () => {}, proseAttributes: ["alt"] });
  const reordered = await loadCorpus(blog, {
    note: () => {},
    proseAttributes: ["label", "alt", "title", "caption", "text"],
  });
  assert.notEqual(fewer.hash, standard.hash);
  assert.equal(reordered.hash, standard.hash);
  assert.ok(!fewer.sections.some((s) => s.text.includes("persists across connections")));
});
