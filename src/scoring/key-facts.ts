// Key facts: whether an answer states its question's key facts and whether the facts it states were in what its tools
// showed (each run's verdict), and the key-fact table's rows: per model and design, how often the answer was right,
// crossed with its strict citation.
import { factsStated } from "../corpus/index.ts";
import type { DesignId, Transcript } from "../designs/index.ts";
import type { AnswerRecord } from "../runs/index.ts";
import { answerRight as citesRightStrictly } from "./engineering.ts";
import { groupRuns, splitQuestionSets, type QuestionSet } from "./summary.ts";

/** One run's key-fact verdict; every field is null when its question has no facts (blank, never zero). */
export interface FactVerdict {
  /** The question's facts, and how many of them the answer states. */
  readonly facts: number | null;
  readonly stated: number | null;
  /** Every fact stated: the answer's content is right. */
  readonly right: boolean | null;
  /** Of the stated facts, how many occur in the text the run's searches and reads showed the model. */
  readonly statedInEvidence: number | null;
  /**
   * "evidence": the answer states a fact and every fact it states was shown; "memory": it states a fact the run
   * never showed; null when it states none.
   */
  readonly from: "evidence" | "memory" | null;
}

/** The answer without its Source line: a slug cited is not a fact stated. */
export function answerContent(answer: string): string {
  const at = answer.lastIndexOf("Source:");
  return at === -1 ? answer : answer.slice(0, at);
}

/** The strings of a tool result that is JSON (json.dumps escapes non-ASCII and quotes); the text itself otherwise. */
function shownText(result: string): string {
  let value: unknown;
  try {
    value = JSON.parse(result);
  } catch {
    return result;
  }
  const strings: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(walk);
  };
  walk(value);
  return strings.join("\n");
}

/**
 * Everything the run's tools showed the model, as text: the workflow's hits (post, heading, snippet) and every tool
 * call's result (search results, sections read, errors), as logged in the transcript.
 */
export function evidenceText(t: Transcript): string {
  const hits = (t.retrieval?.hits ?? []).map((h) => `${h.post}\n${h.heading}\n${h.snippet}`);
  const results = t.calls.flatMap((c) => c.toolCalls.map((tool) => shownText(tool.result)));
  return [...hits, ...results].join("\n\n");
}

export function factVerdict(r: AnswerRecord): FactVerdict {
  const facts = r.facts;
  if (facts === undefined || facts.length === 0)
    return { facts: null, stated: null, right: null, statedInEvidence: null, from: null };
  const stated = factsStated(answerContent(r.answer), facts);
  const shown = factsStated(evidenceText(r.transcript), facts);
  const count = stated.filter(Boolean).length;
  const inEvidence = stated.filter((s, i) => s && shown[i]).length;
  return {
    facts: facts.length,
    stated: count,
    right: count === facts.length,
    statedInEvidence: inEvidence,
    from: count === 0 ? null : inEvidence === count ? "evidence" : "memory",
  };
}

/**
 * One row per question set, model and design. `n` counts every scored run; the rest only the runs whose question has
 * facts (`with_facts`), and are null when none has (a user's question file may leave facts out).
 */
export interface KeyFactRow {
  readonly set: QuestionSet;
  readonly model: string;
  readonly design: DesignId;
  readonly n: number;
  readonly with_facts: number;
  /** Facts stated over facts asked, summed over the runs. */
  readonly facts_stated: number | null;
  readonly facts_asked: number | null;
  /** Every fact stated. */
  readonly answer_right: number | null;
  /** The cross with the strict rescore (exactly the gold posts, for two-post questions). */
  readonly right_cited_right: number | null;
  /** Right, but the Source line names another post, several, or none: it knew, and misreported where from. */
  readonly right_cited_wrong: number | null;
  /** Cited right, but a fact missing: the source was named without its content being used. */
  readonly cited_right_wrong: number | null;
  /** Answers stating facts: all of them shown by the run's tools, or some never shown. */
  readonly from_evidence: number | null;
  readonly from_memory: number | null;
}

export function keyFactRows(records: readonly AnswerRecord[], slugs: readonly string[]): KeyFactRow[] {
  const sets = splitQuestionSets(records);
  const bySet: [QuestionSet, readonly AnswerRecord[]][] = [
    ["one-post", sets.onePost],
    ["two-post", sets.twoPost],
  ];
  return bySet.flatMap(([set, runs]) =>
    groupRuns(runs).map(({ model, design, runs: group }) => {
      const scored = group
        .map((r) => ({ verdict: factVerdict(r), cited: citesRightStrictly(r, r.answer, slugs) }))
        .filter((s) => s.verdict.facts !== null);
      const count = (keep: (s: (typeof scored)[number]) => boolean) =>
        scored.length === 0 ? null : scored.filter(keep).length;
      const total = (pick: (s: (typeof scored)[number]) => number) =>
        scored.length === 0 ? null : scored.reduce((a, s) => a + pick(s), 0);
      return {
        set,
        model,
        design,
        n: group.length,
        with_facts: scored.length,
        facts_stated: total((s) => s.verdict.stated ?? 0),
        facts_asked: total((s) => s.verdict.facts ?? 0),
        answer_right: count((s) => s.verdict.right === true),
        right_cited_right: count((s) => s.verdict.right === true && s.cited),
        right_cited_wrong: count((s) => s.verdict.right === true && !s.cited),
        cited_right_wrong: count((s) => s.verdict.right !== true && s.cited),
        from_evidence: count((s) => s.verdict.from === "evidence"),
        from_memory: count((s) => s.verdict.from === "memory"),
      };
    }),
  );
}
