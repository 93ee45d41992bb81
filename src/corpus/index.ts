// The corpus stage's public face: read a blog into sections, read and check its questions.
export type { Corpus, InputProblem, Post, Question, Section } from "./types.ts";
export { isTwoPost, questionHeadings, questionPosts } from "./types.ts";
export { questionLineSchema } from "./question-schema.ts";
export { loadCorpus, corpusFromFiles, problemsError } from "./load-corpus.ts";

export { parsePost, slugFromPath, SPLIT_DEPTH } from "./parse-post.ts";
export { cleanHeading } from "./clean-heading.ts";
export { formatCorpusSummary, summarizeCorpus } from "./summary.ts";
export { disambiguateHeadings } from "./sections.ts";
export { nearest } from "./nearest.ts";
export { factsStated, normalizeFactText } from "./facts.ts";
export { factSources } from "./fact-sources.ts";
export { checkQuestions, loadQuestions, parseQuestions, readQuestionsFile } from "./questions.ts";
export { describeQuestionShape, questionShapeWarning } from "./question-shape.ts";
export { checkWeakFacts, formatClearedFlags } from "./weak-facts.ts";
export {
  ANSWER_OVERLAP_DEFAULTS,
  SectionOverlap,
  answerOverlaps,
  formatAnswerOverlaps,
} from "./answer-overlap.ts";
