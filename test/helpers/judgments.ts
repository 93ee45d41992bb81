// Hand-built judgments.jsonl lines for the judge's tests: a run's judgment with the verdict the test chooses.
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { judgedRun, type Judgment, type JudgeVerdict } from "../../src/runs/index.ts";
import { judgeRequest } from "../../src/scoring/index.ts";

const REPLIES: Readonly<Record<JudgeVerdict, string>> = {
  supported: "yes",
  unsupported: "no",
  unparsed: "The answer is mostly right.",
};

/** The line the judge command would log for `record` had the judge replied with `verdict`'s word. */
export function makeJudgment(record: AnswerRecord, verdict: JudgeVerdict, judgeModel = "judge"): Judgment {
  const reply = REPLIES[verdict];
  return {
    schema: 1,
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
