// The corpus stage's public face: read a blog into sections, read and check its questions.
export type { Corpus, Post, Question, Section } from "./types.ts";
export { isTwoPost, questionHeadings, questionPosts } from "./types.ts";
export { questionLineSchema } from "./question-schema.ts";
export { loadCorpus, problemsError } from "./load-corpus.ts";

export { SPLIT_DEPTH } from "./parse-post.ts";
export { SLUG_RULES } from "./site-layout.ts";
export { formatCorpusSummary, summarizeCorpus } from "./summary.ts";
export { nearest } from "./nearest.ts";
export { factsStated } from "./facts.ts";
export { loadQuestions, parseQuestions, readQuestionsFile } from "./questions.ts";
export { questionShapeWarning } from "./question-shape.ts";
export { ANSWER_OVERLAP_DEFAULTS } from "./answer-overlap.ts";
export { checkQuestionSet } from "./question-set-check.ts";
