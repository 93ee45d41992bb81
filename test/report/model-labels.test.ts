// Two models of one run whose files share a name are labelled apart, the same way in every table, chart and export.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compareText, readRunFolder, writeInspectLogs, writeTables } from "../../src/report/index.ts";
import { renderReportHtml } from "../../src/report/html.ts";
import { reportPage } from "../../src/report/report-data.ts";
import { modelLabels } from "../../src/report/model-labels.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { EVIL_MODEL, FIXTURE_SLUGS, writeFixtureManifest, writeReportFixture } from "../helpers/report-fixture.ts";

const labelsOf = (ids: readonly string[]) => {
  const label = modelLabels(ids);
  return ids.map(label);
};

test("names no other model shares keep the label they always had", () => {
  assert.deepEqual(
    labelsOf([
      "/models/tiny-seed1.gguf",
      "/models/tiny-seed2.gguf",
      "hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-fp16-00001-of-00002.gguf",
    ]),
    ["tiny-seed1", "tiny-seed2", "Qwen2.5-3B-Instruct"],
  );
});

test("files of one name in different folders get the shortest end of their paths that differs", () => {
  assert.deepEqual(labelsOf(["/a/x/model.gguf", "/b/y/model.gguf", "/c/solo.gguf"]), [
    "x/model.gguf",
    "y/model.gguf",
    "solo",
  ]);
  // All of a name's files are cut alike, at the fewest folders that tell every one apart.
  assert.deepEqual(labelsOf(["/a/x/m.gguf", "/b/x/m.gguf", "/c/y/m.gguf"]), ["a/x/m.gguf", "b/x/m.gguf", "c/y/m.gguf"]);
  assert.deepEqual(labelsOf(["model.gguf", "/x/model.gguf"]), ["model.gguf", "x/model.gguf"]);
  assert.deepEqual(labelsOf(["C:\\a\\model.gguf", "C:\\b\\model.gguf"]), ["a\\model.gguf", "b\\model.gguf"]);
});

test("two files of one hub repository are told apart by file, the same file of two owners by the whole id", () => {
  const repo = "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF";
  assert.deepEqual(labelsOf([`${repo}/qwen2.5-1.5b-instruct-fp16.gguf`, `${repo}/qwen2.5-1.5b-instruct-q8_0.gguf`]), [
    "qwen2.5-1.5b-instruct-fp16.gguf",
    "qwen2.5-1.5b-instruct-q8_0.gguf",
  ]);
  assert.deepEqual(labelsOf(["hf:Qwen/R-GGUF/f.gguf", "hf:someone/R-GGUF/f.gguf"]), [
    "hf:Qwen/R-GGUF/f.gguf",
    "hf:someone/R-GGUF/f.gguf",
  ]);
});

test("compare's folder tags stay at the end, and a tag alone already tells two ids apart", () => {
  assert.deepEqual(labelsOf(["/a/x/model.gguf [one]", "/b/y/model.gguf [one]", "/a/x/model.gguf [two]"]), [
    "x/model.gguf [one]",
    "y/model.gguf [one]",
    "model [two]",
  ]);
});

test("the labels do not depend on the ids' order or repeats, and are always distinct", () => {
  const ids = ["/a/x/model.gguf", "/b/y/model.gguf", "/c/model.gguf"];
  const label = modelLabels(ids);
  const shuffled = modelLabels([...ids].reverse().concat(ids));
  assert.deepEqual(ids.map(label), ids.map(shuffled));
  assert.deepEqual(ids.map(label), ["x/model.gguf", "y/model.gguf", "c/model.gguf"]);
  // "model.gguf" would be both the end of the second and the name of the first: those two keep their whole id.
  assert.deepEqual(labelsOf(["/m/model.gguf.gguf", "model.gguf", "/x/model.gguf"]), [
    "/m/model.gguf.gguf",
    "model.gguf",
    "x/model.gguf",
  ]);
  assert.equal(label("/elsewhere/other.gguf"), "other", "an id the run does not hold gets its name");
});

const MODELS: Record<string, string> = { "small.gguf": "/a/x/model.gguf", [EVIL_MODEL]: "/b/y/model.gguf" };

/** The report fixture with its two models moved to /a/x/model.gguf and /b/y/model.gguf, and a manifest saying so. */
async function sameNamedRun(): Promise<string> {
  const { dir, records } = writeReportFixture();
  const moved = records.map((r): AnswerRecord => ({ ...r, model: MODELS[r.model]! }));
  writeFileSync(path.join(dir, "answers.jsonl"), moved.map((r) => `${JSON.stringify(r)}\n`).join(""));
  await writeFixtureManifest(dir, path.join(dir, "content"), Object.values(MODELS));
  return dir;
}

test("a run of two same-named models shows them apart in tables.md, compare, the page and the Inspect files", async () => {
  const dir = await sameNamedRun();
  const folder = await readRunFolder(dir, { onNotice: () => {} });
  const { markdown } = writeTables(dir, folder.records, FIXTURE_SLUGS, { sections: 3 }, () => {});
  assert.match(markdown, /; x\/model\.gguf, greedy\n/);
  assert.match(markdown, /; y\/model\.gguf, greedy\n/);
  assert.match(markdown, /\n\| x\/model\.gguf \| one retrieval, one answer \|/);
  assert.match(markdown, /\n\| y\/model\.gguf \| one retrieval, one answer \|/);
  assert.doesNotMatch(markdown, /; model, greedy|\n\| model \| (one|agent)/);

  assert.match(compareText(folder), /x\/model\.gguf against y\/model\.gguf, design by design/);

  const page = reportPage("t", {
    records: folder.records,
    slugs: FIXTURE_SLUGS,
    context: { sections: 3 },
    manifest: folder.manifest,
    slugsFrom: "test",
  });
  assert.deepEqual(
    page.data.models.map((m) => m.label),
    ["x/model.gguf", "y/model.gguf"],
  );
  const html = renderReportHtml(page);
  assert.match(html, /<dt>model x\/model\.gguf<\/dt>/);
  assert.match(html, /<dt>model y\/model\.gguf<\/dt>/);
  // The blog the runs asked about is named at the top: under the title and its warnings, before anything else.
  const blog = folder.manifest!.corpus;
  const line = html.indexOf(`<p class="blog">Blog: <strong>${blog.dir}</strong> (${blog.posts.length} posts, `);
  assert.ok(line > html.indexOf("</h1>") && line < html.indexOf('<p class="note">'), html.slice(0, 2000));
  assert.match(html.slice(html.indexOf("</h1>"), line), /^<\/h1>\s*(?:<p class="warning">.*<\/p>\s*)*$/s);

  const names = writeInspectLogs(folder).map((f) => /_(blogqa-.*)_[0-9a-f]+\.json$/.exec(path.basename(f))?.[1]);
  assert.deepEqual(names, ["blogqa-x-model.gguf", "blogqa-y-model.gguf"]);
  assert.equal(readFileSync(path.join(dir, "tables.md"), "utf8"), markdown);
});
