// run --withhold gold on the tiny model: the manifest records it, and no run was shown its question's gold section.
import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import { readAnswerLog, readManifest, goldHeadingsOf, goldPostsOf } from "../../src/runs/index.ts";
import { tinyRun } from "../helpers/tiny-run.ts";
import { runCli } from "../helpers/run-cli.ts";
import { testCacheDir } from "../helpers/tiny-model.ts";

/** Every (post, heading) a run's tools returned: the workflow's hits and the agents' search results and reads. */
function shownSections(transcript: ReturnType<typeof readAnswerLog>["records"][number]["transcript"]): string[] {
  const shown = (transcript.retrieval?.hits ?? []).map((h) => `${h.post}/${h.heading}`);
  for (const call of transcript.calls.flatMap((c) => c.toolCalls)) {
    if (call.result.startsWith("error")) continue;
    const value: unknown = JSON.parse(call.result);
    for (const item of Array.isArray(value) ? value : [value])
      if (typeof item === "object" && item !== null && "post" in item && "heading" in item)
        shown.push(`${String(item.post)}/${String(item.heading)}`);
  }
  return shown;
}

const goldOf = (r: ReturnType<typeof readAnswerLog>["records"][number]) =>
  `${goldPostsOf(r)[0]}/${goldHeadingsOf(r)[0]}`;

test("run --withhold gold: recorded in the manifest, no search or read returns the gold section, audit agrees", {
  timeout: 300_000,
}, async () => {
  const options = { questions: 3, designs: ["workflow", "agent-forced"] } as const;
  const withheld = await tinyRun({ ...options, withhold: "gold" });
  const plain = await tinyRun(options);
  try {
    assert.equal(readManifest(withheld.dir)?.settings.withhold, "gold");
    // Left out at its default, as every setting added since the study is, so older manifests read the same.
    assert.equal(readManifest(plain.dir)?.settings.withhold, undefined);
    const { records } = readAnswerLog(path.join(withheld.dir, "answers.jsonl"));
    assert.equal(records.length, 6);
    for (const r of records)
      assert.ok(!shownSections(r.transcript).includes(goldOf(r)), `${r.design} ${r.question_id} saw ${goldOf(r)}`);
    // The same runs on the whole index do see their gold sections: the test above can fail.
    const { records: seen } = readAnswerLog(path.join(plain.dir, "answers.jsonl"));
    assert.ok(seen.some((r) => shownSections(r.transcript).includes(goldOf(r))));
    // audit reruns each logged run on the index it searched: the withheld one.
    const audit = runCli(["audit", "--out", withheld.dir, "--cache-dir", testCacheDir]);
    assert.equal(audit.status, 0, audit.stderr);
    assert.match(audit.stdout, /byte-identical transcripts: 6 of 6/);
  } finally {
    for (const dir of [withheld.dir, plain.dir]) rmSync(dir, { recursive: true, force: true });
  }
});
