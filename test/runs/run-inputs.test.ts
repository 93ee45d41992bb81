// A run's inputs open in one place: the blog read with the settings given or the manifest's, then the questions and
// the index where asked, each refusal one line naming its file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { UserError } from "../../src/common/index.ts";
import { openRunInputs, runSearchOptions } from "../../src/runs/run-inputs.ts";
import { inputSettingOptions, SETTING_OPTIONS, defaultSettings } from "../../src/runs/settings.ts";
import { readManifest, type RunManifest } from "../../src/runs/manifest.ts";
import { contentOption, searchOptions } from "../../src/commands/options.ts";
import { runWithManifest } from "../helpers/report-fixture.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const shapes = path.resolve(import.meta.dirname, "../fixtures/mdx-shapes");
const blog = path.resolve(import.meta.dirname, "../fixtures/blog");
const folder = tempFolders("run-inputs");
const quiet = { note: () => {} };

const levels = (sections: readonly { readonly level: number }[]) => new Set(sections.map((s) => s.level));

/** The report fixture's manifest, its settings and blog folder changed. */
async function manifestWith(settings: Partial<RunManifest["settings"]>, dir?: string): Promise<RunManifest> {
  const m = readManifest(await runWithManifest())!;
  return { ...m, settings: { ...m.settings, ...settings }, corpus: { ...m.corpus, dir: dir ?? m.corpus.dir } };
}

test("the blog is read with the settings given: --split-depth 4 makes the #### a section", async () => {
  const deep = await openRunInputs({ settings: defaultSettings({ splitDepth: 4 }) }, { content: shapes, ...quiet });
  const study = await openRunInputs({ settings: defaultSettings() }, { content: shapes, ...quiet });
  assert.ok(levels(deep.corpus.sections).has(4));
  assert.ok(!levels(study.corpus.sections).has(4));
  assert.notEqual(deep.corpus.hash, study.corpus.hash);
});

test("a manifest's blog is read at the split depth it records, at the study's where it records none", async () => {
  const recorded = await openRunInputs({ manifest: await manifestWith({ split_depth: 4 }, shapes) }, quiet);
  assert.equal(recorded.corpus.dir, shapes, "the manifest's folder is the default content");
  assert.ok(levels(recorded.corpus.sections).has(4));
  const old = await openRunInputs({ manifest: await manifestWith({}, shapes) }, quiet);
  assert.ok(!levels(old.corpus.sections).has(4));
  const none = await openRunInputs({ manifest: undefined }, { content: shapes, ...quiet });
  assert.equal(none.corpus.hash, old.corpus.hash);
  const named = await openRunInputs({ manifest: await manifestWith({ split_depth: 4 }, shapes) }, { content: blog });
  assert.equal(named.corpus.dir, blog, "content names another folder than the manifest's");
});

test("questions are read and checked against the blog when asked; a bad file is one error naming its line", async () => {
  const opened = await openRunInputs(
    { settings: defaultSettings() },
    { content: path.join(blog, "posts"), questions: path.join(blog, "questions.jsonl") },
  );
  assert.equal(opened.questions[0]?.id, "f1");
  assert.equal("index" in opened, false);
  const bad = path.join(folder("bad"), "questions.jsonl");
  const good = `{"id": "f4", "question": "How does softmax work?", "post": "softmax-basics", "heading": "The softmax formula"}`;
  writeFileSync(bad, `${good}\n{"id": "x", "question": "Where?", "post": "no-such-post", "heading": "Nowhere"}\n`);
  await assert.rejects(
    openRunInputs({ settings: defaultSettings() }, { content: path.join(blog, "posts"), questions: bad }),
    (error) => error instanceof UserError && error.message.includes(`${bad}:2:`),
  );
});

test("checkBlog sees the blog before the questions are read, so its refusal comes first", async () => {
  const seen: string[] = [];
  await assert.rejects(
    openRunInputs(
      { settings: defaultSettings() },
      {
        content: path.join(blog, "posts"),
        questions: path.join(folder("none"), "missing.jsonl"),
        checkBlog: (corpus) => {
          seen.push(corpus.dir);
          throw new UserError("not the blog this run searched");
        },
      },
    ),
    /not the blog this run searched/,
  );
  assert.deepEqual(seen, [path.join(blog, "posts")]);
});

test("the index is opened with the run's search settings and searches the blog it read", async () => {
  const settings = defaultSettings({ retriever: "bm25" });
  const cacheDir = folder("cache");
  const { corpus, index } = await openRunInputs(
    { settings },
    { content: path.join(blog, "posts"), index: { cacheDir } },
  );
  assert.equal(index.retriever, "bm25");
  assert.equal(index.embedding, undefined);
  assert.equal(index.corpus, corpus);
  const hits = await index.search("softmax logits probabilities");
  assert.equal(hits[0]?.post, "softmax-basics");
  const again = await openRunInputs({ settings }, { content: path.join(blog, "posts"), index: { cacheDir } });
  assert.equal(again.index.fromCache, true);
});

test("runSearchOptions maps every index setting, and the commands' flags are the settings tagged as inputs", () => {
  const settings = defaultSettings({ retriever: "dense", embeddingModel: "local/model", embeddingDtype: "q8" });
  assert.deepEqual(runSearchOptions(settings, { cacheDir: "/c" }), {
    retriever: "dense",
    embeddingModel: "local/model",
    dtype: "q8",
    cacheDir: "/c",
  });
  const blogFlags = Object.keys(inputSettingOptions("blog"));
  const indexFlags = Object.keys(inputSettingOptions("index"));
  assert.ok(blogFlags.includes("split-depth"));
  for (const flag of ["retriever", "embedding-model", "embedding-dtype"]) assert.ok(indexFlags.includes(flag), flag);
  assert.equal(inputSettingOptions("index").retriever, SETTING_OPTIONS.retriever);
  // every command that reads a blog takes each blog setting; those that search it, each index setting too
  const entry = (options: object, flag: string) => (options as Record<string, unknown>)[flag];
  for (const flag of blogFlags) assert.equal(entry(contentOption, flag), entry(SETTING_OPTIONS, flag), flag);
  for (const flag of [...blogFlags, ...indexFlags]) assert.ok(flag in searchOptions, flag);
});
