// Whether an answer states its question's key facts, and whether the facts it states were in what its tools showed.
import { factsStated } from "../corpus/index.ts";
import type { Transcript } from "../designs/index.ts";
import type { AnswerRecord } from "../runs/index.ts";

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
