// compare pairs runs on the same question (its text and gold posts, not its id alone), and says when sets differ.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compareText, readRunFolder } from "../../src/report/index.ts";
import { compareRuns } from "../../src/scoring/index.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const SLUGS = ["kv-cache-inference", "flashattention-explained"];
const folder = tempFolders("blogqa-pairs");

/** q01-q03 on the workflow and the agent; `about` picks the gold post and the question's wording. */
function log(about: string, ids = ["q01", "q02", "q03"]): AnswerRecord[] {
  return ids.flatMap((id) =>
    (["workflow", "agent"] as const).map((design) => ({
      ...makeRecord({ design, question_id: id, gold_post: about, answer: `A.\nSource: ${about}` }),
      question: `What does ${about} say, ${id}?`,
    })),
  );
}

async function runFolder(label: string, records: readonly AnswerRecord[]) {
  const dir = folder(label);
  writeFileSync(path.join(dir, "answers.jsonl"), records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const content = path.join(dir, "content");
  mkdirSync(content);
  for (const slug of SLUGS)
    writeFileSync(path.join(content, `${slug}.mdx`), `---\ntitle: ${slug}\n---\n\n## H\n\nText.\n`);
  return readRunFolder(dir, { content, onNotice: () => {} });
}

test("within one log, runs sharing an id but not the question are not paired", () => {
  const mixed = [
    ...log("kv-cache-inference").filter((r) => r.design === "workflow"),
    ...log("flashattention-explained").filter((r) => r.design === "agent"),
  ];
  const [found] = compareRuns(mixed, SLUGS);
  assert.equal(found?.a.n, 0);
  assert.deepEqual(found?.unpaired, ["q01", "q02", "q03", "q01", "q02", "q03"]);
});

test("compare A B refuses two folders that asked different questions, in one line", async () => {
  const a = await runFolder("a", log("kv-cache-inference"));
  const b = await runFolder("b", log("flashattention-explained"));
  assert.throws(() => compareText(a, b), {
    message:
      `compare: ${a.dir} and ${b.dir} asked different questions (3 of ${a.dir}'s 3 are not in ${b.dir}, 3 of ` +
      `${b.dir}'s 3 not in ${a.dir}; first q01); add --common-questions to compare the 0 they share`,
  });
});

test("--common-questions compares the shared questions only and says how many were used and left out", async () => {
  const a = await runFolder("c", log("kv-cache-inference"));
  const b = await runFolder("d", [
    ...log("kv-cache-inference", ["q01"]),
    ...log("flashattention-explained", ["q02", "q03"]),
  ]);
  const text = compareText(a, b, { commonQuestions: true });
  assert.match(text, /^Compared on the 1 question both folders asked; 4 left out \(2 of /);
  assert.match(text, /\| one retrieval, one answer \| found \| 0\/1 \(0%, 0-79%\) \| 0\/1 \(0%, 0-79%\) \|/);
});
