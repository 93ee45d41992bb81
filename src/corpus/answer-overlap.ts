// Finds, for each question, the sections of other posts that say much what its gold section says and hold the
// question's words as well as the gold section does: a second right answer, which the strict scorer would count
// wrong. Lexical, so a review list rather than a verdict: it catches a section written twice in the blog's own
// words, not a paraphrase in other words.
//
// A section is a bag of content terms (the analyzer's: for the blog, BM25's stemmed terms without stop words),
// its heading words counting `headingWeight` times; math commands, URLs and link targets are dropped first. A term
// weighs (1 + ln tf) * ln(N / df) over the N sections of the corpus, and only terms found in at least two sections
// count (a term no other section has can never be shared). The overlap of two sections is the geometric mean of
// the two containments: the share of the first one's term weight carried by terms the second also has, and the
// other way round. Example: a gold section whose weight is 40% in terms the other section also has, and an other
// section whose weight is 10% in terms the gold section has, overlap sqrt(0.4 * 0.1) = 0.2.
//
// A section is flagged for a question when it is in another post than the gold section, its overlap with the gold
// section is at least `threshold`, and it holds at least as many of the question's distinct terms as the gold
// section does. For a two-post question each half is checked on its own, the other half's post included: a
// section of post B that answers half A is how a two-post question turns out answerable from one post. A half
// whose question records `details` is checked on its detail's words instead of the whole question's, since the
// question's other half is worded after the other post and would make that post look like an answer to both.
// The second condition is what lets a question through whose section has a near twin elsewhere: asking for a
// detail only its own section holds, in that section's words, it points at its section more than at the twin.
//
// The default threshold, 0.18, was measured on content/posts as it stood before its questions were rewritten: at it
// the three default questions a reader had found a second right post for were flagged (the weakest, the agent
// loop's stopping guards said again in beyond-vector-rag, at 0.19), and so were all 15 two-post questions the reader
// had found answerable wholly or mostly from one of their posts, and none of the other 5. It also flagged 5 default
// questions whose flagged sections only touch their idea: the list is to be read, not obeyed.
import type { Question, Section } from "./types.ts";
import { isTwoPost, questionHeadings, questionPosts } from "./types.ts";

/** The terms of a text, in order, repeats kept (the search's own analysis, so that the check sees what it sees). */
export type Analyzer = (text: string) => readonly string[];

export interface AnswerOverlapOptions {
  /** Least overlap at which a section is flagged (0.18). */
  readonly threshold?: number;
  /** How many times a heading word counts (2, as a heading word counts twice in the BM25 index). */
  readonly headingWeight?: number;
}

export const ANSWER_OVERLAP_DEFAULTS = { threshold: 0.18, headingWeight: 2 } as const;

export interface SectionRef {
  readonly post: string;
  readonly heading: string;
}

/** A section of another post that may answer the question as well as its gold section does. */
export interface OverlapFlag {
  readonly section: SectionRef;
  /** Its overlap with the gold section, to 3 decimals. */
  readonly overlap: number;
  /** The question's distinct terms found in it, and in the gold section. */
  readonly questionTermsHere: number;
  readonly questionTermsInGold: number;
}

/** One gold section of one question (two for a two-post question) and what was flagged for it, most overlap first. */
export interface AnswerOverlap {
  readonly id: string;
  readonly gold: SectionRef;
  /** The question's distinct terms. */
  readonly questionTerms: number;
  readonly flags: readonly OverlapFlag[];
}

/** Drops what is not prose vocabulary: link targets (kept: the anchor text), bare URLs, TeX commands, sub/superscript marks. */
function prose(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\\[A-Za-z]+/g, " ")
    .replace(/[_{}^]/g, " ");
}

/** Terms worth comparing: they hold a letter and two characters (no bare numbers, no single letters of a formula). */
function contentTerms(analyze: Analyzer, text: string): string[] {
  return analyze(prose(text)).filter((t) => t.length >= 2 && /\p{L}/u.test(t));
}

interface Vector {
  readonly weights: ReadonlyMap<string, number>;
  readonly total: number;
  readonly terms: ReadonlySet<string>;
}

/** The overlap model of a corpus: each section's weighted terms, and the overlap of any two. */
export class SectionOverlap {
  private readonly vectors: Vector[];
  private readonly position = new Map<string, number>();
  private readonly analyze: Analyzer;

  constructor(
    readonly sections: readonly Section[],
    analyze: Analyzer,
    headingWeight: number = ANSWER_OVERLAP_DEFAULTS.headingWeight,
  ) {
    this.analyze = analyze;
    const counts = sections.map((s) => {
      const tf = new Map<string, number>();
      for (const t of contentTerms(analyze, s.text)) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of contentTerms(analyze, s.heading)) tf.set(t, (tf.get(t) ?? 0) + headingWeight);
      return tf;
    });
    const df = new Map<string, number>();
    for (const tf of counts) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    const n = sections.length;
    this.vectors = counts.map((tf) => {
      const weights = new Map<string, number>();
      for (const [t, f] of tf) {
        const d = df.get(t)!;
        if (d >= 2) weights.set(t, (1 + Math.log(f)) * Math.log(n / d));
      }
      const total = [...weights.values()].reduce((a, w) => a + w, 0);
      return { weights, total, terms: new Set(tf.keys()) };
    });
    sections.forEach((s, i) => {
      const key = `${s.post}\n${s.heading}`;
      if (!this.position.has(key)) this.position.set(key, i);
    });
  }

  /** Position of a section in `sections`, or undefined. */
  indexOf(ref: SectionRef): number | undefined {
    return this.position.get(`${ref.post}\n${ref.heading}`);
  }

  /** The geometric mean of the two containments, in [0, 1]; 0 when either section has no weighted term. */
  overlap(i: number, j: number): number {
    const [a, b] = [this.vectors[i]!, this.vectors[j]!];
    if (a.total === 0 || b.total === 0) return 0;
    const contained = (from: Vector, into: Vector) => {
      let shared = 0;
      for (const [t, w] of from.weights) if (into.terms.has(t)) shared += w;
      return shared / from.total;
    };
    return Math.sqrt(contained(a, b) * contained(b, a));
  }

  /** How many of `terms` the section holds (heading or text). */
  holds(i: number, terms: ReadonlySet<string>): number {
    const own = this.vectors[i]!.terms;
    return [...terms].filter((t) => own.has(t)).length;
  }

  /** A question's distinct content terms. */
  questionTerms(question: string): Set<string> {
    return new Set(contentTerms(this.analyze, question));
  }
}

/**
 * Every gold section of every question with what was flagged for it (see the file's comment). Pure. A question
 * whose post or heading is not among `sections` is left out: check the questions first.
 */
export function answerOverlaps(
  sections: readonly Section[],
  questions: readonly Question[],
  analyze: Analyzer,
  options: AnswerOverlapOptions = {},
): AnswerOverlap[] {
  const { threshold, headingWeight } = { ...ANSWER_OVERLAP_DEFAULTS, ...options };
  const model = new SectionOverlap(sections, analyze, headingWeight);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return questions.flatMap((q) => {
    const headings = questionHeadings(q);
    const details = isTwoPost(q) ? q.details : undefined;
    return questionPosts(q).flatMap((post, half) => {
      // A half with a detail is checked on what it asks of its post; the whole question also names the other half's.
      const terms = model.questionTerms(details ? details[half]! : q.question);
      const gold: SectionRef = { post, heading: headings[half]! };
      const g = model.indexOf(gold);
      if (g === undefined) return [];
      const inGold = model.holds(g, terms);
      const flags: OverlapFlag[] = [];
      sections.forEach((s, j) => {
        if (s.post === post) return;
        const overlap = model.overlap(g, j);
        if (overlap < threshold) return;
        const here = model.holds(j, terms);
        if (here < inGold) return;
        flags.push({
          section: { post: s.post, heading: s.heading },
          overlap: round(overlap),
          questionTermsHere: here,
          questionTermsInGold: inGold,
        });
      });
      flags.sort((x, y) => y.overlap - x.overlap);
      return [{ id: q.id, gold, questionTerms: terms.size, flags }];
    });
  });
}

/** The report `questions check --overlap` prints: a summary line, then each flagged gold section and its flags. */
export function formatAnswerOverlaps(file: string, overlaps: readonly AnswerOverlap[], threshold: number): string {
  const flagged = overlaps.filter((o) => o.flags.length > 0);
  const ids = new Set(overlaps.map((o) => o.id));
  const flaggedIds = new Set(flagged.map((o) => o.id));
  const head =
    `${file}: answer overlap (threshold ${threshold}): ${flaggedIds.size} of ${ids.size} questions have a section ` +
    `of another post that says much what their section says and holds as many of their words`;
  const lines = flagged.flatMap((o) => [
    `${o.id} ${o.gold.post}#${o.gold.heading}`,
    ...o.flags.map(
      (f) =>
        `  ${f.overlap.toFixed(2)} ${f.section.post}#${f.section.heading} ` +
        `(question words: ${f.questionTermsHere}/${o.questionTerms} there, ${f.questionTermsInGold}/${o.questionTerms} in its section)`,
    ),
  ]);
  return [head, ...lines].join("\n");
}
