// readRunFolder refuses to score a log against a blog or manifest that is not its own, naming what is wrong.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readRunFolder } from "../../src/report/index.ts";
import { DESIGN_IDS } from "../../src/designs/registry.ts";
import { writeManifestFile, type RunManifest } from "../../src/runs/manifest.ts";
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
  appendLines(dir, [
    makeRecord({ model: "small.gguf", design: "agent-validated", question_id: "q01", gold_post: "rag" }),
  ]);
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

/** The folder's manifest.json, changed by `edit`. */
function editManifest(dir: string, edit: (m: RunManifest) => RunManifest): void {
  const file = path.join(dir, "manifest.json");
  writeManifestFile(dir, edit(JSON.parse(readFileSync(file, "utf8")) as RunManifest));
}

/** The manifest with one session of the fixture's models and designs per --limit given (null: none). */
const withSessions = (m: RunManifest, limits: readonly (number | null)[]): RunManifest => ({
  ...m,
  sessions: limits.map((limit) => ({
    started_at: m.started_at,
    finished_at: m.started_at,
    models: m.models.map((x) => x.id),
    designs: DESIGN_IDS,
    limit,
    ran: null,
    skipped: null,
  })),
});

const joined = (dir: string) =>
  `the run ${path.join(dir, "manifest.json")} records never wrote this line (a log joined from another run?); ` +
  "remove the line, or put the run's own manifest back";

test("a sample past the manifest's --samples is refused with FILE:LINE, not counted as one more run", async () => {
  const dir = await runWithManifest();
  editManifest(dir, (m) => ({ ...m, settings: { ...m.settings, samples: 3 } }));
  appendLines(dir, [{ ...makeRecord({ model: "small.gguf", question_id: "q01" }), sample: 2 }]);
  assert.equal((await readRunFolder(dir, { onNotice: () => {} })).records.length, 25);
  appendLines(dir, [{ ...makeRecord({ model: "small.gguf", question_id: "q02" }), sample: 9 }]);
  await assert.rejects(readRunFolder(dir), {
    message: `${path.join(dir, "answers.jsonl")}:26: sample 9, where --samples 3 logs 0 to 2: ${joined(dir)}`,
  });
});

test("a sample above 0 in a folder whose manifest records one sample is refused", async () => {
  const dir = await runWithManifest();
  appendLines(dir, [{ ...makeRecord({ model: "small.gguf", question_id: "q01" }), sample: 1 }]);
  await assert.rejects(readRunFolder(dir), {
    message: `${path.join(dir, "answers.jsonl")}:25: sample 1, where --samples 1 logs 0 to 0: ${joined(dir)}`,
  });
});

test("a wording the manifest does not record is refused", async () => {
  const dir = await runWithManifest();
  appendLines(dir, [{ ...makeRecord({ model: "small.gguf", question_id: "q01" }), wording: "terse" }]);
  await assert.rejects(readRunFolder(dir), {
    message: `${path.join(dir, "answers.jsonl")}:25: wording terse, not one of its wordings (default): ${joined(dir)}`,
  });
});

test("a log joined from another question set is refused: an id not in the manifest's questions file", async () => {
  const dir = await runWithManifest();
  const questions = path.join(dir, "questions.jsonl");
  appendLines(dir, [makeRecord({ model: "small.gguf", question_id: "f1" })]);
  await assert.rejects(readRunFolder(dir), {
    message: `${path.join(dir, "answers.jsonl")}:25: question f1, which ${questions}, its questions file, does not hold: ${joined(dir)}`,
  });
});

test("with its questions file gone, a log holding more questions than the manifest's count is refused", async () => {
  const dir = await runWithManifest();
  const questions = path.join(dir, "questions.jsonl");
  rmSync(questions);
  editManifest(dir, (m) => withSessions(m, [null]));
  appendLines(
    dir,
    ["f1", "f2", "f3"].map((id) => makeRecord({ model: "small.gguf", question_id: id })),
  );
  await assert.rejects(readRunFolder(dir), {
    message: `${path.join(dir, "answers.jsonl")}:25: question f1, question 4 where it ran 3 (of ${questions}): ${joined(dir)}`,
  });
});

test("a question past every session's --limit is refused; one within the largest is read", async () => {
  const dir = await runWithManifest();
  const questions = path.join(dir, "questions.jsonl");
  editManifest(dir, (m) => withSessions(m, [3, 1]));
  assert.equal((await readRunFolder(dir, { onNotice: () => {} })).records.length, 24);
  editManifest(dir, (m) => withSessions(m, [2, 1]));
  await assert.rejects(readRunFolder(dir), {
    message:
      `${path.join(dir, "answers.jsonl")}:9: question q03, past the first 2 questions of ${questions}, the ones its ` +
      `sessions ran (--limit): ${joined(dir)}`,
  });
});
