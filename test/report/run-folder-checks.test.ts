// readRunFolder refuses to score a log against a blog or manifest that is not its own, naming what is wrong.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { readRunFolder } from "../../src/report/index.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { runWithManifest, writeReportFixture } from "../helpers/report-fixture.ts";

const appendLines = (dir: string, lines: readonly object[]) =>
  writeFileSync(path.join(dir, "answers.jsonl"), lines.map((r) => `${JSON.stringify(r)}\n`).join(""), {
    flag: "a",
  });

test("a log without a manifest is refused unless --content names its blog", async () => {
  const { dir } = writeReportFixture();
  await assert.rejects(readRunFolder(dir), {
    message:
      `${dir} has no manifest.json, so the blog this run searched is unknown (scoring against another blog ` +
      "would count every right citation as invented): name it with --content DIR",
  });
  const run = await readRunFolder(dir, { content: path.join(dir, "content") });
  assert.equal(run.slugs.length, 3);
});

test("a line whose gold post is not a post of the blog is refused with FILE:LINE", async () => {
  const dir = await runWithManifest();
  appendLines(dir, [makeRecord({ model: "small.gguf", question_id: "q99", gold_post: "rag" })]);
  const file = path.join(dir, "answers.jsonl");
  await assert.rejects(readRunFolder(dir), {
    message:
      `${file}:25: gold post rag is not a post of the blog in ${path.join(dir, "manifest.json")} ` +
      "(is this log scored against the blog it was run on?)",
  });
});

test("a manifest that never recorded a model of the log is not this log's manifest", async () => {
  const dir = await runWithManifest();
  appendLines(dir, [makeRecord({ model: "other.gguf", question_id: "q01" })]);
  await assert.rejects(readRunFolder(dir), {
    message:
      `${path.join(dir, "answers.jsonl")}:25: a run of model other.gguf, which ${path.join(dir, "manifest.json")} ` +
      "never recorded: that manifest is not this log's (copied from another run?); put the run's own back, or " +
      "remove it and name the blog with --content DIR",
  });
});
