// The corpus stage's public face: read a blog into sections, read and check its questions.
export type {
  Corpus,
  InputProblem,
  LeftOut,
  OnePostQuestion,
  Post,
  Question,
  Section,
  TwoPostQuestion,
} from "./types.ts";
export { isTwoPost, questionHeadings, questionPosts } from "./types.ts";
export {
  loadCorpus,
  corpusFromFiles,
  corpusHash,
  describeLeftOut,
  formatProblem,
  problemsError,
  slugClashes,
  type LoadOptions,
} from "./load-corpus.ts";
export type { PostFile } from "./find-posts.ts";
export { parsePost, slugFromPath, type ParsedPost } from "./parse-post.ts";
export { cleanHeading } from "./clean-heading.ts";
export { formatCorpusSummary, summarizeCorpus, type CorpusSummary, type PostSummary } from "./summary.ts";
export { disambiguateHeadings } from "./sections.ts";
export { nearest } from "./nearest.ts";
export {
  QUESTIONS_PER_POST,
  checkQuestions,
  loadQuestions,
  parseQuestions,
  readQuestionsFile,
  type LocatedQuestion,
} from "./questions.ts";
export {
  NEAR_DUPLICATE_DEFAULTS,
  describeNearDuplicate,
  findNearDuplicates,
  paragraphs,
  shingles,
  words,
  type NearDuplicate,
  type NearDuplicateOptions,
  type Passage,
} from "./near-duplicates.ts";
