// Logs and command lines from before the concept was called "design" still read as they were meant.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import yargs from "yargs";
import { commandLine } from "../../src/commands/command-line.ts";
import { studyRunOptions } from "../../src/commands/study.ts";
import { UserError } from "../../src/common/index.ts";
import { parseDesigns } from "../../src/commands/study-setup.ts";
import { readAnswerLog } from "../../src/runs/index.ts";
import { makeRecord } from "../helpers/answer-records.ts";

test("a log line that names its design in the old `variant` field is read with `design`", () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "blogqa-design-")), "answers.jsonl");
  const { design, ...rest } = makeRecord({ design: "agent-forced", question_id: "q1" });
  const current = makeRecord({ design: "agent", question_id: "q2" });
  writeFileSync(file, `${JSON.stringify({ ...rest, variant: design })}\n${JSON.stringify(current)}\n`);
  const { records } = readAnswerLog(file);
  assert.deepEqual(
    records.map((r) => r.design),
    ["agent-forced", "agent"],
  );
  assert.equal("variant" in records[0]!, false);
});

test("--designs chooses the designs; the old --variants is refused in one line naming --designs", async () => {
  const parse = (args: string[]) => studyRunOptions(yargs().exitProcess(false)).parseAsync(args);
  assert.deepEqual((await parse(["--designs", "workflow,agent"])).designs, ["workflow", "agent"]);
  assert.equal((await parse([])).designs, undefined, "none named: the command runs its default designs");
  for (const command of ["run", "smoke", "experiment"])
    await assert.rejects(
      async () => commandLine([command, "--variants", "agent-forced"], 110).parseAsync(),
      (error: unknown) =>
        error instanceof UserError &&
        error.exitCode === 2 &&
        error.message.split("\n")[0] === "--variants is now called --designs: give --designs",
    );
});

test("--designs takes the groups study and engineered beside ids; none named runs the study's four", async () => {
  const parse = (args: string[]) => studyRunOptions(yargs().exitProcess(false)).parseAsync(args);
  assert.deepEqual((await parse(["--designs", "engineered"])).designs, [
    "agent-validated",
    "agent-cite-checked",
    "workflow-cite-checked",
    "agent-constrained",
  ]);
  const both = (await parse(["--designs", "study,engineered,workflow"])).designs;
  assert.equal(both?.length, 8, "each design once");
  assert.deepEqual(parseDesigns(undefined), ["workflow", "agent", "agent-search-first", "agent-forced"]);
  assert.throws(
    () => parseDesigns("agent-validatd"),
    /unknown design agent-validatd; choose from study, engineered, workflow,/,
  );
});
