// A run folder whose lock is held by a run still going: every reader says "in progress: N of M runs".
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readRunFolder, rescoreText, writeReport } from "../../src/report/index.ts";
import { writeTables } from "../../src/report/write-tables.ts";
import { readManifest } from "../../src/runs/index.ts";
import { writeManifestFile } from "../../src/runs/manifest.ts";
import { currentHolder, LOCK_FILE } from "../../src/runs/run-lock.ts";
import { DESIGN_IDS, DESIGN_LABELS, DESIGN_MARKS, type DesignId } from "../../src/designs/index.ts";
import { escapeHtml } from "../../src/report/html-escape.ts";
import { runWithManifest } from "../helpers/report-fixture.ts";

/**
 * The fixture folder (its log: 4 designs x 2 models x 3 questions) with one session per list of designs, the last
 * one running: its lock held by this process.
 */
async function runningFolder(...sessions: (readonly DesignId[])[]): Promise<string> {
  const dir = await runWithManifest();
  const manifest = readManifest(dir)!;
  const session = (designs: readonly string[]) => ({
    started_at: manifest.started_at,
    finished_at: null,
    models: manifest.models.map((m) => m.id),
    designs,
    limit: null,
    ran: null,
    skipped: null,
  });
  writeManifestFile(dir, { ...manifest, sessions: sessions.map(session) } as typeof manifest);
  writeFileSync(path.join(dir, LOCK_FILE), `${JSON.stringify(currentHolder())}\n`);
  return dir;
}

/** Every design on 2 models x 3 questions is planned; the fixture's log holds the study's 4 designs' 24. */
const PLANNED = DESIGN_IDS.length * 6;
const NOTICE = `in progress: 24 of ${PLANNED} runs (the run writing this folder has not finished; these numbers are partial)`;

test("with the lock held and runs left, stderr, rescore, tables.md and the page say how far the run has got", async () => {
  const dir = await runningFolder(DESIGN_IDS);
  const notices: string[] = [];
  const run = await readRunFolder(dir, { onNotice: (line) => notices.push(line) });
  assert.deepEqual(run.progress, { done: 24, planned: PLANNED });
  assert.deepEqual(notices, [`${dir}: ${NOTICE}`]);
  assert.ok(rescoreText(run).includes(`**${NOTICE}**`));
  writeTables(dir, run.records, run.slugs, run.context);
  assert.ok(readFileSync(path.join(dir, "tables.md"), "utf8").includes(`**${NOTICE}**`));
  const page = readFileSync(await writeReport(dir, { onNotice: () => {} }), "utf8");
  assert.ok(page.includes(`<p class="warning" id="in-progress"><strong>Run in progress.</strong> ${NOTICE}.</p>`));
});

test("no notice once the lock is released, nor when the session's plan is all logged", async () => {
  const dir = await runningFolder(DESIGN_IDS);
  rmSync(path.join(dir, LOCK_FILE));
  const notices: string[] = [];
  const stopped = await readRunFolder(dir, { onNotice: (line) => notices.push(line) });
  assert.equal(stopped.progress, undefined);
  assert.deepEqual(notices, []);
  assert.doesNotMatch(rescoreText(stopped), /in progress/);
  const logged = [...new Set(stopped.records.map((r) => r.design))];
  const complete = await runningFolder(DESIGN_IDS, logged);
  const later: string[] = [];
  const done = await readRunFolder(complete, { onNotice: (line) => later.push(line) });
  assert.equal(done.progress, undefined);
  assert.deepEqual(later, []);
  assert.doesNotMatch(readFileSync(await writeReport(complete, { onNotice: () => {} }), "utf8"), /in-progress/);
});

test("the page's captions count the run's own questions and name only the designs it ran", async () => {
  const dir = await runWithManifest();
  const run = await readRunFolder(dir, { onNotice: () => {} });
  const page = readFileSync(await writeReport(dir, { onNotice: () => {} }), "utf8");
  const n = new Set(run.records.map((r) => r.question_id)).size;
  assert.ok(page.includes(`with ${n} questions they are wide`), "question count");
  assert.doesNotMatch(page, /with 30 questions/);
  const ran = new Set(run.records.map((r) => r.design));
  for (const id of DESIGN_IDS) {
    const label = DESIGN_LABELS[id];
    const named = page.includes(escapeHtml(`${DESIGN_MARKS[id]} = ${label}`));
    assert.equal(named, ran.has(id), `${id} in the legend`);
  }
});
