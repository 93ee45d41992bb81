// A folder remembers what read its blog: a digest of the sections as the model reads them, checked on resume, said
// by rescore and audit when this blogqa reads the same posts into other text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadCorpus } from "../../src/corpus/index.ts";
import { auditRunFolder } from "../../src/runs/audit.ts";
import { checkFolderReading, mixedReadings, readingSha256 } from "../../src/runs/blog-reading.ts";
import { MANIFEST_FILE, readManifest, writeManifestFile, type RunManifest } from "../../src/runs/manifest.ts";
import { readAnswerLog } from "../../src/runs/answer-log.ts";
import { runWithManifest } from "../helpers/report-fixture.ts";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";

/** The sections digest another blogqa's parser would have recorded for the same bytes. */
const OTHER_READING = "ab".repeat(32);

/** The report fixture's folder, its manifest rewritten by `change`. */
async function folderWith(change: (m: RunManifest) => RunManifest): Promise<string> {
  const dir = await runWithManifest();
  writeManifestFile(dir, change(readManifest(dir)!));
  return dir;
}

const otherReading = (m: RunManifest): RunManifest => ({
  ...m,
  corpus: { ...m.corpus, sections_sha256: OTHER_READING },
  blogqa: { version: "0.1.0", git_commit: "229e729".padEnd(40, "0"), git_dirty: false },
});

test("the digest covers post, heading and text as the model reads them, in order, and nothing else", async () => {
  const corpus = await loadCorpus(path.join(import.meta.dirname, "../fixtures/blog"));
  const digest = readingSha256(corpus.sections);
  assert.match(digest, /^[0-9a-f]{64}$/);
  const [first, ...rest] = corpus.sections;
  assert.equal(readingSha256(corpus.sections.map((s) => ({ ...s, level: 6 as const }))), digest);
  assert.notEqual(readingSha256([{ ...first!, text: `${first!.text} ` }, ...rest]), digest);
  assert.notEqual(readingSha256([...rest, first!]), digest);
});

test("a manifest records the reading and the blogqa of each session", async () => {
  const dir = await runWithManifest();
  const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), "utf8")) as RunManifest;
  const corpus = await loadCorpus(manifest.corpus.dir);
  assert.equal(manifest.corpus.sections_sha256, readingSha256(corpus.sections));
  assert.equal(typeof manifest.blogqa.version, "string");
});

test("rescore says in one line that another blogqa read the same posts otherwise, and scores the log", async () => {
  const dir = await folderWith(otherReading);
  const check = await checkFolderReading(dir, readManifest(dir)!, undefined);
  assert.equal(check.kind, "differs");
  const { status, stdout, stderr } = await runCliInProcess(["rescore", dir]);
  assert.equal(status, 0, stderr);
  const notes = stderr.split("\n").filter((l) => l.includes("other sections"));
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /^rescore: note: .* was made by blogqa 0\.1\.0 \(229e729\), which read the same posts/);
  assert.match(notes[0]!, /sections sha256 abababababab then/);
  assert.match(stdout, /^Strict rescore .*\n\n\| model \| design \|/); // the tables, as ever

  // the same reading says nothing
  const same = await runWithManifest();
  assert.equal((await checkFolderReading(same, readManifest(same)!, undefined)).kind, "same");
});

test("audit says it before it reruns", async () => {
  const dir = await folderWith(otherReading);
  const lines: string[] = [];
  const manifest = readManifest(dir)!;
  const runs = readAnswerLog(path.join(dir, "answers.jsonl")).records.filter((r) => r.model === "small.gguf");
  // the fixture's model is no file: the audit stops there, after the line
  await assert.rejects(
    auditRunFolder({
      dir,
      manifest,
      runs,
      model: "small.gguf",
      cacheDir: path.join(dir, "cache"),
      onProgress: (l) => lines.push(l),
    }),
  );
  assert.ok(
    lines.some((l) => /^audit: note: .* read the same posts into other sections/.test(l)),
    lines.join("\n"),
  );
});

test("sessions that read the blog two ways are named", () => {
  const session = { started_at: "", finished_at: null, models: [], designs: [], limit: null, ran: null, skipped: null };
  const manifest = {
    sessions: [
      { ...session, sections_sha256: "a".repeat(64) },
      { ...session, sections_sha256: "a".repeat(64) },
      { ...session, sections_sha256: "b".repeat(64) },
    ],
  } as unknown as RunManifest;
  assert.equal(mixedReadings(manifest), "sessions 1-2 read aaaaaaaaaaaa, session 3 read bbbbbbbbbbbb");
  assert.equal(mixedReadings({ sessions: manifest.sessions.slice(0, 2) } as unknown as RunManifest), undefined);
});
