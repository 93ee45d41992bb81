// judgments.jsonl: appended one judgment at a time, read back checked against the answers it judged, resumable.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readJudgments } from "../../src/runs/index.ts";
import { openJudgmentLog } from "../../src/runs/judgment-log.ts";
import { JUDGMENTS_FILE } from "../../src/runs/judgment-log.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { judgmentLines, makeJudgment } from "../helpers/judgments.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const folder = tempFolders("blogqa-judgments");
const FACTS = [["prefill"]];
const records = ["q1", "q2", "q3"].map((id) => makeRecord({ question_id: id, facts: FACTS }));
const [r1, r2, r3] = records as [(typeof records)[0], (typeof records)[0], (typeof records)[0]];

test("judgments appended are read back, and a reopened log knows what is judged", () => {
  const dir = folder("append");
  assert.deepEqual(readJudgments(dir, records), [], "no file: nothing judged");
  const log = openJudgmentLog(dir, records, "judge");
  assert.equal(log.file, path.join(dir, JUDGMENTS_FILE));
  log.append(makeJudgment(r1, "supported"));
  log.append(makeJudgment(r2, "unparsed"));
  assert.deepEqual(
    log.judgments().map((j) => j.question_id),
    ["q1", "q2"],
  );
  log.close();
  const again = openJudgmentLog(dir, records, "judge");
  assert.deepEqual(
    records.map((r) => again.has(r)),
    [true, true, false],
  );
  again.close();
  assert.deepEqual(
    readJudgments(dir, records).map((j) => [j.question_id, j.verdict]),
    [
      ["q1", "supported"],
      ["q2", "unparsed"],
    ],
  );
});

test("a server judge's line as older blogqa wrote it and an in-process judge's line both read back", () => {
  const dir = folder("two-backends");
  // Older lines: the body sent held only the judge's fields, and a server's null content was logged as null.
  const older = { ...makeJudgment(r1, "unparsed"), reply: null };
  // In process: no URL and no server answer, the prompt the model read, the request as the rubric made it.
  const local = {
    ...makeJudgment(r2, "unparsed"),
    judge_url: null,
    prompt: "<|im_start|>system\nYou check answers.<|im_end|>\n<|im_start|>assistant\n",
    reply: "ことに Handlers",
    response: null,
  };
  // A server's body now carries the runtime's greedy fields beside the judge's.
  const served = makeJudgment(r3, "supported");
  const sent = { ...served, request: { ...served.request, top_k: 1, repeat_penalty: 1, cache_prompt: true } };
  writeFileSync(path.join(dir, JUDGMENTS_FILE), judgmentLines([older, local, sent]));
  const read = readJudgments(dir, records);
  assert.deepEqual(read, [older, local, sent]);
  assert.equal(read[1]!.judge_url, null);
  assert.equal(read[2]!.request.top_k, 1, "the extra body fields are kept as logged");
});

test("a torn last line is not counted, and judging again cuts it off", () => {
  const dir = folder("torn");
  const file = path.join(dir, JUDGMENTS_FILE);
  writeFileSync(
    file,
    judgmentLines([makeJudgment(r1, "supported")]) + JSON.stringify(makeJudgment(r2, "supported")).slice(0, 40),
  );
  const notices: string[] = [];
  assert.equal(readJudgments(dir, records, (n) => notices.push(n)).length, 1);
  assert.match(notices[0]!, /judgments\.jsonl:2: the last line is torn/);
  const log = openJudgmentLog(dir, records, "judge", (n) => notices.push(n));
  assert.match(notices[1]!, /judgments\.jsonl:2: dropped a torn last line/);
  assert.equal(log.has(r2), false);
  log.append(makeJudgment(r2, "unsupported"));
  log.close();
  assert.equal(
    readFileSync(file, "utf8"),
    judgmentLines([makeJudgment(r1, "supported"), makeJudgment(r2, "unsupported")]),
  );
});

test("a line that is not a judgment, a second judgment of a run, or one of another answer stops with FILE:LINE", () => {
  const cases: [string, string, RegExp][] = [
    ["bad-json", "{not json\n", /judgments\.jsonl:1: not a JSON line/],
    [
      "bad-field",
      `${JSON.stringify({ ...makeJudgment(r1, "supported"), verdict: "maybe" })}\n`,
      /judgments\.jsonl:1: field verdict: .*"supported", "unsupported", "unparsed"/,
    ],
    [
      "twice",
      judgmentLines([makeJudgment(r1, "supported"), makeJudgment(r2, "supported"), makeJudgment(r1, "unsupported")]),
      /judgments\.jsonl:3: a second judgment of model tiny\.gguf, design workflow, question q1 \(first on line 1\)/,
    ],
    [
      "other-answer",
      judgmentLines([makeJudgment({ ...r1, answer: "Something else." }, "supported")]),
      /judgments\.jsonl:1: a judgment of another answer of model tiny\.gguf, design workflow, question q1/,
    ],
    [
      "no-such-run",
      judgmentLines([makeJudgment(makeRecord({ question_id: "q9", facts: FACTS }), "supported")]),
      /judgments\.jsonl:1: a judgment of model tiny\.gguf, design workflow, question q9, which the folder's answers\.jsonl holds no answer of/,
    ],
    [
      "two-judges",
      judgmentLines([makeJudgment(r1, "supported", "judge-a"), makeJudgment(r2, "supported", "judge-b")]),
      /judgments\.jsonl:2: judged by judge-b, line 1 by judge-a/,
    ],
  ];
  for (const [label, text, message] of cases) {
    const dir = folder(label);
    writeFileSync(path.join(dir, JUDGMENTS_FILE), text);
    assert.throws(() => readJudgments(dir, records), message, label);
    assert.throws(() => openJudgmentLog(dir, records, "judge"), message, label);
  }
  // A run whose call failed is no answer: a judgment of it is refused too.
  const dir = folder("failed");
  writeFileSync(path.join(dir, JUDGMENTS_FILE), judgmentLines([makeJudgment(r3, "supported")]));
  assert.throws(() => readJudgments(dir, [r1, r2, { ...r3, outcome: "error" }]), /holds no answer of/);
});

test("another judge model's file is refused, and so is a second judge of the folder at once", () => {
  const dir = folder("other-judge");
  appendFileSync(path.join(dir, JUDGMENTS_FILE), judgmentLines([makeJudgment(r1, "supported", "judge-a")]));
  assert.throws(
    () => openJudgmentLog(dir, records, "judge-b"),
    /holds the verdicts of judge model judge-a; .*remove the file to judge with judge-b, or give --judge-model judge-a/,
  );
  const first = openJudgmentLog(dir, records, "judge-a");
  try {
    assert.throws(() => openJudgmentLog(dir, records, "judge-a"), /is in use by another blogqa run/);
  } finally {
    first.close();
  }
  openJudgmentLog(dir, records, "judge-a").close();
});
