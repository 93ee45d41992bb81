// The model judge's pure parts: the request it sends, the strict reading of its reply, and its rows beside the key facts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { judgeRequest, judgeRows, parseVerdict } from "../../src/scoring/index.ts";
import { judgeable } from "../../src/runs/index.ts";
import { goldSectionsOf } from "../../src/runs/judge-runs.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { makeJudgment } from "../helpers/judgments.ts";

const FACTS = [["prefill"]];
const RIGHT = "Prefill.\nSource: kv-cache-inference";
const WRONG = "No idea.\nSource: kv-cache-inference";

test("the request asks about the answer without its Source line, against every gold section's text, greedily", () => {
  const one = makeRecord({ question_id: "q1", facts: FACTS, answer: "Prefill runs first.\nSource: secret-slug" });
  const request = judgeRequest("judge-1b", one, [
    { post: "kv-cache-inference", heading: "Prefill and decode", text: "Prefill processes the prompt." },
  ]);
  assert.equal(request.model, "judge-1b");
  assert.equal(request.temperature, 0);
  assert.equal(request.stream, false);
  assert.ok(request.max_tokens > 0 && request.max_tokens <= 32, `a small max_tokens, got ${request.max_tokens}`);
  assert.ok(Number.isInteger(request.seed));
  assert.deepEqual(
    request.messages.map((m) => m.role),
    ["system", "user"],
  );
  const user = request.messages[1]!.content;
  assert.ok(user.includes('section "Prefill and decode" of the post "kv-cache-inference"'), user);
  assert.ok(user.includes("Prefill processes the prompt."));
  assert.ok(user.includes(`Question: ${one.question}`));
  assert.ok(user.includes("Prefill runs first."));
  assert.ok(!user.includes("secret-slug"), "the citation is the strict rescore's, not the judge's");
  assert.match(user, /Reply with exactly one word: yes or no\.$/);

  const two = makeRecord({ question_id: "q2", facts: FACTS, gold_posts: ["a", "b"] });
  const gold = goldSectionsOf(two);
  assert.deepEqual(gold, [
    { post: "a", heading: "H1" },
    { post: "b", heading: "H2" },
  ]);
  const both = judgeRequest(
    "j",
    two,
    gold.map((g) => ({ ...g, text: `text of ${g.post}` })),
  ).messages[1]!.content;
  assert.ok(both.includes("text of a") && both.includes("text of b"), both);
});

test("only answered runs of questions with facts are judged", () => {
  assert.equal(judgeable(makeRecord({ question_id: "q1", facts: FACTS })), true);
  assert.equal(judgeable(makeRecord({ question_id: "q1" })), false);
  assert.equal(judgeable(makeRecord({ question_id: "q1", facts: [] })), false);
  assert.equal(judgeable({ ...makeRecord({ question_id: "q1", facts: FACTS }), outcome: "error" }), false);
});

test("the verdict is the reply's first word, yes or no; anything else is unparsed, never guessed", () => {
  const cases: [string | null, string][] = [
    ["yes", "supported"],
    ["Yes.", "supported"],
    ["  YES\nbecause the text says so", "supported"],
    ["no", "unsupported"],
    ["No, it is not.", "unsupported"],
    ["no!", "unsupported"],
    ["nope", "unparsed"],
    ["yesterday", "unparsed"],
    ["yes/no", "unparsed"],
    ["**Yes**", "unparsed"],
    ['"yes"', "unparsed"],
    ["<think>\nThe text says prefill.</think>\nyes", "unparsed"],
    ["The answer is supported: yes", "unparsed"],
    ["yes..", "unparsed"],
    ["", "unparsed"],
    ["   ", "unparsed"],
    [null, "unparsed"],
  ];
  for (const [reply, verdict] of cases) assert.equal(parseVerdict(reply), verdict, JSON.stringify(reply));
});

test("per design: the verdicts counted, unparsed left out of kappa, crossed with answer right", () => {
  const run = (id: string, answer: string, design: "workflow" | "agent" = "workflow") =>
    makeRecord({ question_id: id, facts: FACTS, answer, design });
  const workflow = {
    q1: run("q1", RIGHT),
    q2: run("q2", RIGHT),
    q3: run("q3", WRONG),
    q4: run("q4", WRONG),
    q5: run("q5", RIGHT),
    q6: run("q6", WRONG),
    q7: makeRecord({ question_id: "q7", answer: RIGHT }),
    q8: run("q8", RIGHT),
    q9: run("q9", WRONG),
  };
  const agent = [run("q1", RIGHT, "agent"), run("q2", RIGHT, "agent")];
  const judgments = [
    makeJudgment(workflow.q1, "supported"),
    makeJudgment(workflow.q2, "unsupported"),
    makeJudgment(workflow.q3, "unsupported"),
    makeJudgment(workflow.q4, "supported"),
    makeJudgment(workflow.q5, "unparsed"),
    makeJudgment(workflow.q8, "supported"),
    makeJudgment(workflow.q9, "unsupported"),
    ...agent.map((r) => makeJudgment(r, "supported")),
  ];
  const rows = judgeRows([...Object.values(workflow), ...agent], judgments);
  // Workflow, over the six parsed verdicts: a = 2 (q1, q8), b = 1 (q4), c = 1 (q2), d = 2 (q3, q9);
  // p_o = 4/6, p_e = (3*3 + 3*3) / 36 = 1/2, kappa = (2/3 - 1/2) / (1/2) = 1/3.
  assert.equal(rows.length, 2);
  const [w, a] = rows;
  assert.deepEqual(
    { ...w, kappa: undefined },
    {
      set: "one-post",
      model: "tiny.gguf",
      design: "workflow",
      with_facts: 8,
      judged: 7,
      supported: 3,
      unsupported: 3,
      unparsed: 1,
      supported_right: 2,
      supported_not_right: 1,
      unsupported_right: 1,
      unsupported_not_right: 2,
      kappa: undefined,
    },
  );
  assert.ok(Math.abs(w!.kappa! - 1 / 3) < 1e-12, String(w!.kappa));
  // The agent: both right and both supported, one class for both raters: kappa undefined.
  assert.equal(a!.design, "agent");
  assert.equal(a!.supported_right, 2);
  assert.equal(a!.kappa, null);
  // Nothing judged yet: counts of zero and no kappa, the rows still there beside the key facts.
  const none = judgeRows(Object.values(workflow), []);
  assert.deepEqual(
    none.map((r) => [r.with_facts, r.judged, r.kappa]),
    [[8, 0, null]],
  );
});

test("docs/answers-and-evidence.md states the request's decoding as the judge sends it", () => {
  const page = readFileSync(path.join(import.meta.dirname, "../../docs/answers-and-evidence.md"), "utf8");
  const request = judgeRequest("j", makeRecord({ question_id: "q1", facts: FACTS }), []);
  const stated = `\`temperature\` ${request.temperature}, \`max_tokens\` ${request.max_tokens}, \`seed\` ${request.seed}`;
  assert.ok(page.replace(/\s+/g, " ").includes(stated), `the page states ${stated}`);
});
