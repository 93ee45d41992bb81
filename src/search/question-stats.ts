// How lexical a questions file is: how much of each question's wording its own section, its post's title and the
// other posts already hold, in the terms BM25 matches on.
import { questionPosts, questionHeadings, type Corpus, type Question } from "../corpus/index.ts";
import { bm25Terms } from "./bm25.ts";

/** Shares are fractions of the question's distinct content terms (BM25's terms: stop words out, stemmed). */
export interface QuestionStats {
  readonly id: string;
  /** Distinct content terms of the question. */
  readonly terms: number;
  /** Share found in the section that answers it (heading and text; for two posts, in either section). */
  readonly in_section: number;
  /** Share found in its post's title (for two posts, in either title). */
  readonly in_title: number;
  /** Share found in some post that does not answer it. */
  readonly in_other_posts: number;
  /** The content terms of its post's slug (for two posts, both slugs) that the question contains, of how many. */
  readonly slug_terms_found: number;
  readonly slug_terms: number;
  /** Every content term of the slug (of either slug, for two posts) is in the question: it names the post. */
  readonly names_slug: boolean;
}

export interface QuestionSetStats {
  readonly questions: readonly QuestionStats[];
  /** Means of the shares over the questions, and how many questions name their post's slug. */
  readonly total: {
    readonly questions: number;
    readonly in_section: number;
    readonly in_title: number;
    readonly in_other_posts: number;
    readonly names_slug: number;
    /** Questions holding at least one of their slug's content terms. */
    readonly slug_terms_any: number;
  };
}

/**
 * Example: "How can a running maximum and running sum compute softmax in one pass?" has the terms {can, run,
 * maximum, sum, comput, softmax, one, pass}; its section "Online softmax with a running sum" holds all but "can"
 * and "comput" (0.75), its post's title "Softmax Basics" one (0.125), and of its slug's terms {softmax, basic} it
 * holds one (names_slug false).
 * Pure: the corpus must hold every post the questions name (check the file first).
 */
export function questionStats(corpus: Corpus, questions: readonly Question[]): QuestionSetStats {
  const terms = (text: string) => new Set(bm25Terms(text));
  const postTerms = new Map(
    corpus.posts.map((p) => [p.slug, terms(p.sections.map((s) => `${s.heading}\n${s.text}`).join("\n"))]),
  );
  const titleTerms = new Map(corpus.posts.map((p) => [p.slug, terms(p.title)]));
  const rows = questions.map((q): QuestionStats => {
    const own = terms(q.question);
    const posts = questionPosts(q);
    const headings = questionHeadings(q);
    const sectionText = posts
      .map((post, i) => corpus.sections.find((s) => s.post === post && s.heading === headings[i]))
      .map((s) => (s ? `${s.heading}\n${s.text}` : ""))
      .join("\n");
    const section = terms(sectionText);
    const titles = union(posts.map((p) => titleTerms.get(p) ?? new Set<string>()));
    const others = union([...postTerms].filter(([slug]) => !posts.includes(slug)).map(([, t]) => t));
    const slugSets = posts.map((p) => terms(p.replace(/-/g, " ")));
    const slug = union(slugSets);
    return {
      id: q.id,
      terms: own.size,
      in_section: share(own, section),
      in_title: share(own, titles),
      in_other_posts: share(own, others),
      slug_terms_found: [...slug].filter((t) => own.has(t)).length,
      slug_terms: slug.size,
      names_slug: slugSets.some((set) => set.size > 0 && [...set].every((t) => own.has(t))),
    };
  });
  const mean = (pick: (r: QuestionStats) => number) =>
    rows.length === 0 ? 0 : round(rows.reduce((a, r) => a + pick(r), 0) / rows.length);
  return {
    questions: rows,
    total: {
      questions: rows.length,
      in_section: mean((r) => r.in_section),
      in_title: mean((r) => r.in_title),
      in_other_posts: mean((r) => r.in_other_posts),
      names_slug: rows.filter((r) => r.names_slug).length,
      slug_terms_any: rows.filter((r) => r.slug_terms_found > 0).length,
    },
  };
}

function union(sets: readonly ReadonlySet<string>[]): Set<string> {
  return new Set(sets.flatMap((s) => [...s]));
}

/** Fraction of `terms` found in `where`, to 3 decimals; 0 for a question with no content terms. */
function share(terms: ReadonlySet<string>, where: ReadonlySet<string>): number {
  if (terms.size === 0) return 0;
  return round([...terms].filter((t) => where.has(t)).length / terms.size);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
