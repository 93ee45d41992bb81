// Scoring a run reads its blog from the manifest: another --content is refused unless forced, folder or log alike.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readRunFolder } from "../../src/report/index.ts";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";
import { runWithManifest, writeReportFixture } from "../helpers/report-fixture.ts";
import { FIXTURE_CONTENT } from "../helpers/tiny-run.ts";

test("a run folder's slugs come from its manifest, whether the folder or its answers.jsonl is named", async () => {
  const dir = await runWithManifest();
  const byFolder = await readRunFolder(dir);
  const byLog = await readRunFolder(path.join(dir, "answers.jsonl"));
  assert.deepEqual(byFolder.slugs, ["bm25-hybrid-search", "flashattention-explained", "kv-cache-inference"]);
  assert.deepEqual(byLog.slugs, byFolder.slugs);
  assert.equal(byLog.records.length, byFolder.records.length);
});

test("--content naming another blog than the manifest's is refused, and accepted with force", async () => {
  const dir = await runWithManifest();
  await assert.rejects(readRunFolder(dir, { content: FIXTURE_CONTENT }), /is not the blog this run searched.*--force/);
  const forced = await readRunFolder(dir, { content: FIXTURE_CONTENT, force: true });
  assert.ok(forced.slugs.includes("softmax-basics"));
  // The same bytes under another path are the same blog.
  const same = await readRunFolder(dir, { content: path.join(dir, "content") });
  assert.deepEqual(same.slugs, (await readRunFolder(dir)).slugs);
});

test("rescore scores against the run's own blog, not content/posts, and refuses another --content", async () => {
  const dir = await runWithManifest();
  const own = await runCliInProcess(["rescore", dir, "--json"]);
  assert.equal(own.status, 0, own.stderr);
  const rows = (
    JSON.parse(own.stdout) as {
      tables: { strict: { rows: { "strict.csv": { model: string; design: string; source_one_real: number }[] } } };
    }
  ).tables.strict.rows["strict.csv"];
  // The workflow cites kv-cache-inference, a post of the run's blog, in two of three answers per model.
  const workflow = rows.find((r) => r.model === "small.gguf" && r.design === "workflow");
  assert.ok(workflow, own.stdout);
  assert.equal(workflow.source_one_real, 2);
  const byLog = await runCliInProcess(["rescore", path.join(dir, "answers.jsonl"), "--json"]);
  assert.equal(byLog.stdout, own.stdout);

  const other = await runCliInProcess(["rescore", dir, "--content", FIXTURE_CONTENT]);
  assert.equal(other.status, 1);
  assert.match(other.stderr, /^blogqa: .* is not the blog this run searched.*--force/);
  assert.doesNotMatch(other.stderr, /\n\s+at /);
});

test("rescore, compare, report and audit take a run folder or its answers.jsonl alike", async () => {
  const dir = await runWithManifest();
  const log = path.join(dir, "answers.jsonl");
  for (const command of ["rescore", "compare"]) {
    const byFolder = await runCliInProcess([command, dir, "--json"]);
    assert.equal(byFolder.status, 0, byFolder.stderr);
    assert.equal((await runCliInProcess([command, log, "--json"])).stdout, byFolder.stdout);
  }
  const report = [await runCliInProcess(["report", dir]), await runCliInProcess(["report", log])];
  assert.deepEqual(
    report.map((r) => r.stdout.trim()),
    [path.join(dir, "report.html"), path.join(dir, "report.html")],
  );
  // audit needs a manifest with settings it can rerun: a folder without one is refused the same way either way.
  const { dir: bare } = writeReportFixture();
  const audits = [
    await runCliInProcess(["audit", bare]),
    await runCliInProcess(["audit", path.join(bare, "answers.jsonl")]),
  ];
  for (const a of audits) {
    assert.equal(a.status, 1);
    assert.equal(
      a.stderr,
      `blogqa: ${bare} has no manifest.json: the audit reruns with the run's own settings and cannot know them\n`,
    );
  }
});
