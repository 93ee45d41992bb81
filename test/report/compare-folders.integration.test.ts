// compare with two run folders: the same model's runs in each become two arms, compared question by question.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { modelLabels } from "../../src/report/index.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";
import { FIXTURE_CONTENT } from "../helpers/tiny-run.ts";

const root = mkdtempSync(path.join(os.tmpdir(), "blogqa-compare-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** A run folder named `name` whose workflow cites the right post on the first `right` of four questions. */
function folder(name: string, right: number): string {
  const dir = path.join(root, name);
  mkdirSync(dir);
  const lines = ["q01", "q02", "q03", "q04"].map((id, i) =>
    JSON.stringify(
      makeRecord({
        model: "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-fp16.gguf",
        question_id: id,
        gold_post: "softmax-basics",
        answer: `Source: ${i < right ? "softmax-basics" : "vector-search"}`,
      }),
    ),
  );
  writeFileSync(path.join(dir, "answers.jsonl"), `${lines.join("\n")}\n`);
  return dir;
}

test("compare A B pairs each model with itself across the two folders, labelled by folder", async () => {
  const auto = folder("auto", 4);
  const none = folder("none", 1);
  const result = await runCliInProcess(["compare", auto, none, "--content", FIXTURE_CONTENT, "--json"]);
  assert.equal(result.status, 0, result.stderr);
  const { comparisons } = JSON.parse(result.stdout) as {
    comparisons: {
      across: string;
      measure: string;
      a: { model: string; k: number; n: number };
      b: { model: string; k: number; n: number };
    }[];
  };
  const cites = comparisons.find((c) => c.across === "models" && c.measure === "cites_right");
  assert.ok(cites, result.stdout);
  const label = modelLabels([cites.a.model, cites.b.model]);
  assert.deepEqual([label(cites.a.model), cites.a.k, cites.a.n], ["Qwen2.5-1.5B-Instruct [auto]", 4, 4]);
  assert.deepEqual([label(cites.b.model), cites.b.k, cites.b.n], ["Qwen2.5-1.5B-Instruct [none]", 1, 4]);
  const text = await runCliInProcess(["compare", auto, none, "--content", FIXTURE_CONTENT]);
  assert.match(text.stdout, /Qwen2\.5-1\.5B-Instruct \[auto\] against Qwen2\.5-1\.5B-Instruct \[none\]/);
  const twice = await runCliInProcess(["compare", auto, auto, "--content", FIXTURE_CONTENT]);
  assert.equal(twice.status, 1);
  assert.match(twice.stderr, /given twice/);
});

test("a tagged model id keeps its tag in the label, for paths and hub ids alike", () => {
  const label = (id: string) => modelLabels([id])(id);
  assert.equal(label("/models/tiny-seed1.gguf [none]"), "tiny-seed1 [none]");
  assert.equal(label("hf:Qwen/Qwen2.5-3B-Instruct-GGUF/x.gguf [auto 1]"), "Qwen2.5-3B-Instruct [auto 1]");
  assert.equal(label("/models/a [b]/tiny.gguf"), "tiny", "a bracket inside a path is no tag");
});
