// `questions check` in one pure step: a questions file's text against a blog gives either its problems, by line, or
// what the command reports about it. The command reads the files and prints; this decides.
import { answerOverlaps, formatAnswerOverlaps } from "./answer-overlap.ts";
import { factSources } from "./fact-sources.ts";
import { describeQuestionShape, questionShapeWarning } from "./question-shape.ts";
import { checkQuestions, parseQuestions } from "./questions.ts";
import { isTwoPost, questionPosts, type Corpus, type InputProblem, type Question } from "./types.ts";
import { checkWeakFacts, formatClearedFlags, type TermAnalyzer } from "./weak-facts.ts";

export interface QuestionSetCheckOptions {
  /** The questions file's name, as problems and the report name it. */
  readonly file: string;
  /** The blog's folder, as the report names it. */
  readonly content: string;
  /** BM25's analyzer (stop words out, stemmed): the weak-fact rules and the overlap count terms with it. */
  readonly terms: TermAnalyzer;
  /** Also list the sections of other posts that may answer each question as well as its own, at this threshold. */
  readonly overlapThreshold?: number;
}

export type QuestionSetCheck =
  | { readonly ok: false; readonly problems: readonly InputProblem[] }
  | {
      readonly ok: true;
      /** The summary: counts, key facts, cleared flags, questions per post. */
      readonly report: readonly string[];
      /** Said apart (stderr): the questions per post are not the study's. */
      readonly warning?: string;
      /** With overlapThreshold: the answer-overlap listing. */
      readonly overlaps?: string;
    };

export function checkQuestionSet(text: string, corpus: Corpus, options: QuestionSetCheckOptions): QuestionSetCheck {
  const { file, content, terms, overlapThreshold } = options;
  const { questions, problems } = parseQuestions(file, text);
  const weak = checkWeakFacts(file, questions, corpus, terms);
  const all = [...problems, ...checkQuestions(file, questions, corpus), ...weak.problems].sort(
    (a, b) => (a.line ?? 0) - (b.line ?? 0),
  );
  if (all.length > 0) return { ok: false, problems: all };

  const asked = questions.map((q) => q.question);
  const posts = new Set(asked.flatMap(questionPosts)).size;
  const twoPost = asked.filter(isTwoPost).length;
  const shape =
    twoPost === 0 ? "" : twoPost === asked.length ? " (each needing two posts)" : ` (${twoPost} needing two posts)`;
  const facts = factsLine(asked, corpus);
  const perPost = describeQuestionShape(asked);
  const warning = questionShapeWarning(asked);
  return {
    ok: true,
    report: [
      `${file}: ${asked.length} questions${shape} about ${posts} posts, all found in ${content} (${corpus.posts.length} posts, ${corpus.sections.length} sections)`,
      ...(facts === undefined ? [] : [facts]),
      ...formatClearedFlags(weak.cleared),
      ...(perPost === "" ? [] : [perPost]),
    ],
    ...(warning === undefined ? {} : { warning }),
    ...(overlapThreshold === undefined
      ? {}
      : {
          overlaps: formatAnswerOverlaps(
            file,
            answerOverlaps(corpus.sections, asked, terms, { threshold: overlapThreshold }),
            overlapThreshold,
          ),
        }),
  };
}

/** How many key facts the file gives and, for two-post questions, which gold section states each; undefined for none. */
function factsLine(questions: readonly Question[], corpus: Corpus): string | undefined {
  const withFacts = questions.filter((q) => q.facts !== undefined);
  if (withFacts.length === 0) return undefined;
  const sectionOf = (slug: string, heading: string) =>
    corpus.sections.find((s) => s.post === slug && s.heading === heading);
  const sources = withFacts.filter(isTwoPost).flatMap((q) => factSources(q, sectionOf));
  const count = (inGold: string) => sources.filter((s) => s.inGold.join() === inGold).length;
  const split =
    sources.length === 0
      ? ""
      : ` (of the two-post questions' ${sources.length}: ${count("0")} in the first post's section only, ${count("1")} in the second's only, ${count("0,1")} in both)`;
  const total = withFacts.reduce((n, q) => n + (q.facts?.length ?? 0), 0);
  const without = questions.length - withFacts.length;
  const rest = without === 0 ? "" : `; ${without} question${without === 1 ? " has" : "s have"} none`;
  return `${total} key facts on ${withFacts.length} questions, each stated in its gold section${split}${rest}`;
}
