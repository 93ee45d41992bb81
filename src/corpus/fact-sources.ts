// Where each of a question's key facts is written in its gold section(s): the questions check's fact test.
import { clipText } from "../common/index.ts";
import { factsStated } from "./facts.ts";
import { questionHeadings, questionPosts, type Question, type Section } from "./types.ts";

/** One fact of one question, and the gold sections (as indexes into questionPosts) whose text states it. */
export interface FactSource {
  /** 1-based, in the question's `facts` order. */
  readonly fact: number;
  readonly phrasings: readonly string[];
  readonly inGold: readonly number[];
}

/**
 * Each fact of the question, with the gold sections that state it (a two-post question's fact may be in either);
 * [] for a question without facts. A section the corpus lacks states nothing.
 */
export function factSources(question: Question, sectionOf: (post: string, heading: string) => Section | undefined) {
  const headings = questionHeadings(question);
  const texts = questionPosts(question).map((post, i) => sectionOf(post, headings[i]!)?.text ?? "");
  const facts = question.facts ?? [];
  const stated = texts.map((text) => factsStated(text, facts));
  return facts.map(
    (phrasings, f): FactSource => ({
      fact: f + 1,
      phrasings,
      inGold: stated.flatMap((row, g) => (row[f] ? [g] : [])),
    }),
  );
}

/** Characters of a fact's phrasings a problem line quotes (a fact may list thousands). */
const MAX_PHRASINGS_SHOWN = 300;

/** The problem a fact found in no gold section is, or undefined; names the fact by its number and phrasings. */
export function missingFactMessage(question: Question, source: FactSource): string | undefined {
  if (source.inGold.length > 0) return undefined;
  const said = clipText(source.phrasings.map((p) => JSON.stringify(p)).join(" / "), MAX_PHRASINGS_SHOWN);
  const where = questionPosts(question)
    .map((post, i) => `"${questionHeadings(question)[i]}" of "${post}"`)
    .join(" or ");
  return `fact ${source.fact} (${said}) is not in the gold section ${where}`;
}
