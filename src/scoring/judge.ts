// The optional model judge beside the key facts: the request asking whether an answer is supported by its gold
// section's text, the verdict read from the reply, and per design the verdicts counted with their agreement (Cohen's
// kappa) with the rule-based answer right. Pure: runs/judge-runs.ts sends the request and logs the exchange.
import {
  judgeable,
  runKey,
  type AnswerRecord,
  type GoldSection,
  type JudgeRequest,
  type JudgeVerdict,
  type Judgment,
} from "../runs/index.ts";
import type { DesignId } from "../designs/index.ts";
import { answerContent, factVerdict } from "./key-facts.ts";
import { cohensKappa } from "./statistics.ts";
import { groupRuns, splitQuestionSets, type QuestionSet } from "./summary.ts";

/** Enough for "yes" or "no" and a full stop in any tokenizer; a judge that writes more is cut off, not waited for. */
export const JUDGE_MAX_TOKENS = 16;
/** Sent with every request, for servers whose sampling draws from a seed even at temperature 0. */
const JUDGE_SEED = 0;

const JUDGE_SYSTEM =
  "You check answers against reference text. You reply with one word: yes or no. You never explain your reply.";

/**
 * The judge's request for one run: the question, the gold section's text (both sections of a two-post question) and
 * the answer without its Source line (the strict rescore judges the citation), greedy with a small max_tokens.
 */
export function judgeRequest(judgeModel: string, r: AnswerRecord, gold: readonly GoldSection[]): JudgeRequest {
  const reference = gold
    .map((g) => `Reference text (section "${g.heading}" of the post "${g.post}"):\n"""\n${g.text}\n"""`)
    .join("\n\n");
  const user =
    `${reference}\n\nQuestion: ${r.question}\n\nAnswer:\n"""\n${answerContent(r.answer).trim()}\n"""\n\n` +
    "Is the answer supported by the reference text: does it answer the question, and is what it says stated in the " +
    "reference text? Reply with exactly one word: yes or no.";
  return {
    model: judgeModel,
    messages: [
      { role: "system", content: JUDGE_SYSTEM },
      { role: "user", content: user },
    ],
    temperature: 0,
    max_tokens: JUDGE_MAX_TOKENS,
    seed: JUDGE_SEED,
    stream: false,
  };
}

/**
 * The verdict of a reply, strictly: its first word (the text up to the first whitespace, after leading whitespace),
 * without one trailing "." "," "!" or ":", is "yes" or "no" in any case; anything else (no reply, an explanation first,
 * "**Yes**", "yes/no", a thinking block) is unparsed, counted as such and never guessed.
 */
export function parseVerdict(reply: string | null): JudgeVerdict {
  const first = (reply ?? "").trimStart().split(/\s/, 1)[0] ?? "";
  const word = first.replace(/[.,!:]$/, "").toLowerCase();
  return word === "yes" ? "supported" : word === "no" ? "unsupported" : "unparsed";
}

/**
 * One row per question set, model and design with runs the judge could be asked about: the judge's verdicts, and
 * their cross with the rule-based answer right over the runs with a parsed verdict (unparsed ones left out of it,
 * and counted).
 */
export interface JudgeRow {
  readonly set: QuestionSet;
  readonly model: string;
  readonly design: DesignId;
  /** Scored runs whose question has key facts: the runs the judge is asked about. */
  readonly with_facts: number;
  readonly judged: number;
  readonly supported: number;
  readonly unsupported: number;
  readonly unparsed: number;
  /** The cross of a parsed verdict with answer right (every key fact stated). */
  readonly supported_right: number;
  readonly supported_not_right: number;
  readonly unsupported_right: number;
  readonly unsupported_not_right: number;
  /** Cohen's kappa of the judge against answer right over the parsed verdicts; null where undefined (cohensKappa). */
  readonly kappa: number | null;
}

/** `records` are the scored runs (see splitFailed); `judgments`, the folder's, matched to them by run. */
export function judgeRows(records: readonly AnswerRecord[], judgments: readonly Judgment[]): JudgeRow[] {
  const verdictOf = new Map(judgments.map((j) => [runKey(j), j.verdict]));
  const sets = splitQuestionSets(records.filter(judgeable));
  const bySet: [QuestionSet, readonly AnswerRecord[]][] = [
    ["one-post", sets.onePost],
    ["two-post", sets.twoPost],
  ];
  return bySet.flatMap(([set, runs]) =>
    groupRuns(runs).map(({ model, design, runs: group }) => {
      const scored = group.map((r) => ({ verdict: verdictOf.get(runKey(r)), right: factVerdict(r).right === true }));
      const count = (keep: (s: (typeof scored)[number]) => boolean) => scored.filter(keep).length;
      const cross = {
        yes_yes: count((s) => s.verdict === "supported" && s.right),
        yes_no: count((s) => s.verdict === "supported" && !s.right),
        no_yes: count((s) => s.verdict === "unsupported" && s.right),
        no_no: count((s) => s.verdict === "unsupported" && !s.right),
      };
      return {
        set,
        model,
        design,
        with_facts: group.length,
        judged: count((s) => s.verdict !== undefined),
        supported: count((s) => s.verdict === "supported"),
        unsupported: count((s) => s.verdict === "unsupported"),
        unparsed: count((s) => s.verdict === "unparsed"),
        supported_right: cross.yes_yes,
        supported_not_right: cross.yes_no,
        unsupported_right: cross.no_yes,
        unsupported_not_right: cross.no_no,
        kappa: cohensKappa(cross),
      };
    }),
  );
}
