// The withheld-source test and the judge on runs of the trained agent model, which cites what it is shown: with each
// question's gold post withheld it can no longer cite it, and rescore --against says so; a stand-in judge on
// 127.0.0.1 is asked about every answer with key facts, the trained model's answers as logged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { runCli, runCliAsync } from "../helpers/run-cli.ts";
import { testCacheDir } from "../helpers/tiny-model.ts";
import { startFakeServer } from "../helpers/fake-openai-server.ts";
import { tempFolders } from "../helpers/temp-folders.ts";
import { readAnswerLog } from "../../src/runs/index.ts";

const folder = tempFolders("blogqa-trained-withhold");
const COMMON = ["--retriever", "bm25", "--designs", "workflow,agent-forced", "--threads", "1"];

/** The answer as the judge reads it: without its Source line (a slug cited is not a fact stated). */
const answerWithoutSource = (answer: string) =>
  (answer.lastIndexOf("Source:") === -1 ? answer : answer.slice(0, answer.lastIndexOf("Source:"))).trim();

const csv = (file: string) => {
  const [header, ...rows] = readFileSync(file, "utf8").trim().split("\n");
  const names = header!.split(",");
  return rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [names[i]!, v])));
};

test("trained model: withholding the gold post takes its citations away; the judge is asked about each answer", {
  timeout: 900_000,
}, async () => {
  const shown = folder("shown");
  const withheld = folder("withheld");
  for (const [out, extra] of [
    [shown, []],
    [withheld, ["--withhold", "gold-post"]],
  ] as const) {
    const run = runCli([
      "smoke",
      "--weights",
      "trained",
      "--out",
      out,
      "--cache-dir",
      testCacheDir,
      ...COMMON,
      ...extra,
    ]);
    assert.equal(run.status, 0, run.stderr);
  }

  const against = runCli(["rescore", shown, "--against", withheld]);
  assert.equal(against.status, 0, against.stderr);
  const rows = csv(path.join(shown, "withholding.csv"));
  const workflow = rows.find((r) => r.design === "workflow")!;
  assert.equal(workflow.withhold, "gold-post");
  assert.equal(workflow.n, "30");
  // It copies slugs from what it is shown: with the source shown it cites it, with the post withheld never.
  assert.ok(Number(workflow.cites_right_shown) >= 8, JSON.stringify(workflow));
  assert.equal(workflow.cites_right_withheld, "0", JSON.stringify(workflow));
  assert.equal(workflow.citation_survives, "0");

  // Every answer with key facts goes to the judge as logged; its verdicts are tabled beside the rule's.
  const server = await startFakeServer(
    () => ({
      json: {
        choices: [{ index: 0, message: { role: "assistant", content: "Yes." }, finish_reason: "stop" }],
        usage: { prompt_tokens: 300, completion_tokens: 2 },
      },
    }),
    { modelId: "stand-in" },
  );
  try {
    const judged = await runCliAsync(["rescore", shown, "--judge", server.url, "--judge-model", "stand-in"]);
    assert.equal(judged.status, 0, judged.stderr);
    const { records } = readAnswerLog(path.join(shown, "answers.jsonl"));
    const withFacts = records.filter((r) => (r.facts?.length ?? 0) > 0);
    assert.ok(withFacts.length > 0);
    assert.equal(server.calls.length, withFacts.length);
    for (const r of withFacts)
      assert.ok(
        server.calls.some((c) =>
          JSON.stringify(c.body).includes(JSON.stringify(`"""\n${answerWithoutSource(r.answer)}\n"""`).slice(1, -1)),
        ),
        `${r.design} ${r.question_id}: its answer was not sent to the judge`,
      );
    assert.match(readFileSync(path.join(shown, "tables.md"), "utf8"), /judge/i);
  } finally {
    await server.kill();
  }
});
