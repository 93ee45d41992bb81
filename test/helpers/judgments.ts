// Hand-built judgments.jsonl lines for the judge's tests (a run's judgment with the verdict the test chooses), and a
// run folder on the fixture blog with a stand-in judge's scripted replies.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import type { Judgment, JudgeVerdict } from "../../src/runs/index.ts";
import { judgedRun } from "../../src/runs/judgment-log.ts";
import { judgeRequest } from "../../src/scoring/index.ts";
import { makeRecord } from "./answer-records.ts";
import { writeFixtureManifest } from "./report-fixture.ts";
import { FIXTURE_CONTENT } from "./tiny-run.ts";

const REPLIES: Readonly<Record<JudgeVerdict, string>> = {
  supported: "yes",
  unsupported: "no",
  unparsed: "The answer is mostly right.",
};

/** The line the judge command would log for `record` had the judge replied with `verdict`'s word. */
export function makeJudgment(record: AnswerRecord, verdict: JudgeVerdict, judgeModel = "judge"): Judgment {
  const reply = REPLIES[verdict];
  return {
    ...judgedRun(record),
    judge_model: judgeModel,
    judge_url: "http://127.0.0.1:9/v1",
    request: judgeRequest(judgeModel, record, [{ post: "p", heading: "h", text: "Some text." }]),
    reply,
    response: { choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }] },
    verdict,
    seconds: 0.1,
  };
}

/** The file's text for these judgments, one line each. */
export const judgmentLines = (judgments: readonly Judgment[]) =>
  judgments.map((j) => `${JSON.stringify(j)}\n`).join("");

/** The judge fixture's answers: per design, question and answer; the stand-in judge's reply to each answer. */
export const JUDGE_FIXTURE = [
  // workflow: right, wrong, right; judged yes, no, yes (kappa 1 over three parsed verdicts).
  { design: "workflow", id: "f4", answer: "Each score is exponentiated and divided by the sum.", reply: "Yes." },
  { design: "workflow", id: "f5", answer: "It is faster.", reply: "no" },
  { design: "workflow", id: "f6", answer: "It keeps a running sum.", reply: "yes" },
  // agent: right, right, wrong; judged unparsed, no, yes (kappa -1 over the two parsed ones).
  {
    design: "agent",
    id: "f4",
    answer: "Scores are exponentiated, then the sum divides them.",
    reply: "The answer is supported.",
  },
  { design: "agent", id: "f5", answer: "Subtract the maximum first.", reply: "No" },
  { design: "agent", id: "f6", answer: "No idea.", reply: "yes" },
] as const;

const FIXTURE_FACTS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  f4: [["exponentiated"], ["sum"]],
  f5: [["maximum"]],
  f6: [["running sum"]],
};
const FIXTURE_GOLD: Readonly<Record<string, string>> = {
  f1: "Code with # comments",
  f4: "The softmax formula",
  f5: "Subtracting the maximum for stability",
  f6: "Online softmax with a running sum",
};

/**
 * A run folder on the fixture blog (test/fixtures/blog/posts), its manifest naming it: the six judged answers above,
 * and one run per design of a question without facts (f1), which the judge is not asked about.
 */
export async function writeJudgeFixture(dir: string): Promise<AnswerRecord[]> {
  const records = [
    ...JUDGE_FIXTURE.map(({ design, id, answer }) =>
      makeRecord({
        model: "small.gguf",
        design,
        question_id: id,
        gold_post: "softmax-basics",
        facts: FIXTURE_FACTS[id]!,
        answer: `${answer}\nSource: softmax-basics`,
      }),
    ),
    ...(["workflow", "agent"] as const).map((design) =>
      makeRecord({ model: "small.gguf", design, question_id: "f1", gold_post: "kitchen-sink" }),
    ),
  ].map((r) => ({ ...r, gold_heading: FIXTURE_GOLD[r.question_id]! }));
  writeFileSync(path.join(dir, "answers.jsonl"), records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  await writeFixtureManifest(dir, FIXTURE_CONTENT, ["small.gguf"]);
  return records;
}

/** The stand-in judge's reply to a request: the scripted reply to the answer it asks about. */
export function scriptedVerdict(body: Record<string, unknown>): string {
  const user = (body.messages as { content: string }[])[1]!.content;
  const line = JUDGE_FIXTURE.find((f) => user.includes(`"""\n${f.answer}\n"""`));
  if (line === undefined) throw new Error(`no scripted verdict for ${user}`);
  return line.reply;
}

/** Makes `dir`'s manifest say its run withheld `mode` from each question's index, as run --withhold records it. */
export function markWithheld(dir: string, mode: "gold" | "gold-post"): void {
  const file = path.join(dir, "manifest.json");
  const manifest = JSON.parse(readFileSync(file, "utf8"));
  writeFileSync(file, JSON.stringify({ ...manifest, settings: { ...manifest.settings, withhold: mode } }));
}

/** Replaces the answer of one run in `dir`'s answers.jsonl. */
export function replaceAnswer(dir: string, design: string, questionId: string, answer: string): void {
  const file = path.join(dir, "answers.jsonl");
  const lines = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as AnswerRecord);
  const edited = lines.map((r) =>
    r.design === design && r.question_id === questionId ? { ...r, answer, transcript: { ...r.transcript, answer } } : r,
  );
  writeFileSync(file, edited.map((r) => `${JSON.stringify(r)}\n`).join(""));
}

/**
 * A run and its withheld twin for `rescore --against`: the judge fixture in both, `held` marked --withhold gold, and
 * there the workflow's f4 cites the wrong post and states no fact (a citation and an answer that do not survive).
 */
export async function writeWithheldPair(normal: string, held: string): Promise<void> {
  await writeJudgeFixture(normal);
  await writeJudgeFixture(held);
  markWithheld(held, "gold");
  replaceAnswer(held, "workflow", "f4", "I do not know.\nSource: kitchen-sink");
}
