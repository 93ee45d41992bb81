// Reads questions.jsonl and checks it against the corpus: every problem named with its line.
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { describeValue, schemaMismatch, UserError } from "../common/index.ts";
import { questionHeadings, questionPosts, type Corpus, type InputProblem, type Question } from "./types.ts";
import { onePostQuestionSchema, twoPostQuestionSchema } from "./question-schema.ts";
import { problemsError } from "./load-corpus.ts";
import { nearest } from "./nearest.ts";
import { factSources, missingFactMessage } from "./fact-sources.ts";

export interface LocatedQuestion {
  /** 1-based line in the questions file. */
  readonly line: number;
  readonly question: Question;
}

/**
 * Parses JSONL text; blank lines are skipped. A line is a JSON object with string `id` and `question` and either
 * string `post` and `heading` (one post) or `posts: [a, b]` and `headings: [ha, hb]` (two posts), and may hold
 * `facts` (and, with two posts, `details`: see question-schema.ts); anything else becomes a problem naming the line.
 */
export function parseQuestions(file: string, text: string): { questions: LocatedQuestion[]; problems: InputProblem[] } {
  const questions: LocatedQuestion[] = [];
  const problems: InputProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push({ file, line, message: `not valid JSON (${(error as Error).message})` });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push({ file, line, message: "not a JSON object" });
      return;
    }
    const parsed = questionFrom(value as Record<string, unknown>);
    if (typeof parsed === "string") problems.push({ file, line, message: parsed });
    else questions.push({ line, question: parsed });
  });
  if (questions.length === 0 && problems.length === 0) problems.push({ file, message: "no questions in the file" });
  return { questions, problems };
}

/** The question on one line, or what is wrong with it. */
function questionFrom(record: Record<string, unknown>): Question | string {
  const own = (field: string) => Object.hasOwn(record, field);
  const twoPost = own("posts") || own("headings");
  if (twoPost && (own("post") || own("heading")))
    return 'has both "post"/"heading" (one post) and "posts"/"headings" (two posts): use one shape';
  const result = (twoPost ? twoPostQuestionSchema : onePostQuestionSchema).safeParse(record);
  return result.success ? result.data : problemOf(record, result.error.issues);
}

/**
 * What is wrong with a line, its text fields first: every bad one is named at once, as a person writing questions
 * by hand fixes them in one go. Then the two-post lists, then anything else.
 */
function problemOf(record: Record<string, unknown>, issues: readonly z.core.$ZodIssue[]): string {
  const bad = (fields: readonly string[]) =>
    fields.filter((f) => issues.some((issue) => issue.path[0] === f)).map((f) => `"${f}"`);
  const split = issues.find((issue) => issue.path[0] === "id" && typeof record.id === "string" && /\S/.test(record.id));
  if (split !== undefined) return `field id: ${split.message}`;
  const texts = bad(["id", "question", "post", "heading"]);
  if (texts.length > 0) return `missing field ${texts.join(", ")} (each must be a non-empty string)`;
  const lists = bad(["posts", "headings"]);
  if (lists.length > 0) return `field ${lists.join(", ")} must be a list of two non-empty strings`;
  const issue = issues[0]!;
  if (issue.code === "custom") return issue.message;
  const { path, problem } = schemaMismatch(record, issue, describeValue);
  return `field ${path}: ${problem}`;
}

/**
 * The corpus checks: ids unique, every post and heading exists as the indexer names it, and every key fact (`facts`)
 * stated in a gold section (either one, for a two-post question). Any number of questions per post is accepted: the
 * study's three per post is its shape, not a rule for a user's blog (see question-shape.ts).
 */
export function checkQuestions(file: string, questions: readonly LocatedQuestion[], corpus: Corpus): InputProblem[] {
  const problems: InputProblem[] = [];
  const posts = new Map(corpus.posts.map((post) => [post.slug, post]));
  // Questions about another blog altogether: one line, not one per question.
  if (
    questions.length > 0 &&
    !questions.some(({ question }) => questionPosts(question).some((slug) => posts.has(slug)))
  ) {
    const message =
      `none of these ${questions.length} questions is about a post in ${corpus.dir}: they belong to another blog. ` +
      `Give questions about this blog with --questions FILE (\`questions check\` checks them).`;
    return [{ file, message }];
  }
  const firstLineOfId = new Map<string, number>();
  for (const { line, question } of questions) {
    const earlier = firstLineOfId.get(question.id);
    if (earlier !== undefined)
      problems.push({ file, line, message: `id "${question.id}" repeats (first used on line ${earlier})` });
    else firstLineOfId.set(question.id, line);

    const headings = questionHeadings(question);
    questionPosts(question).forEach((slug, i) => {
      const heading = headings[i]!;
      const post = posts.get(slug);
      if (!post) {
        const near = nearest(slug, [...posts.keys()]);
        const hint = near ? ` (did you mean "${near}"?)` : "";
        problems.push({ file, line, message: `post "${slug}" is not in the corpus (${corpus.dir})${hint}` });
        return;
      }
      const folded = post.foldedHeadings.find((f) => f.heading === heading);
      if (!post.sections.some((s) => s.heading === heading) && folded !== undefined) {
        const message = `heading "${heading}" is not a section of post "${slug}": it is a deeper heading, folded into section "${folded.section}" (use that heading)`;
        problems.push({ file, line, message });
      } else if (!post.sections.some((s) => s.heading === heading)) {
        const near = nearest(
          heading,
          post.sections.map((s) => s.heading),
        );
        const hint = near ? ` (did you mean "${near}"?)` : "";
        problems.push({ file, line, message: `heading "${heading}" is not a section of post "${slug}"${hint}` });
      }
    });
    const sectionOf = (slug: string, heading: string) => posts.get(slug)?.sections.find((s) => s.heading === heading);
    // A gold section not found is named above; its facts are checked once it is.
    const golds = questionPosts(question).every((slug, i) => sectionOf(slug, headings[i]!) !== undefined);
    for (const source of golds ? factSources(question, sectionOf) : []) {
      const message = missingFactMessage(question, source);
      if (message !== undefined) problems.push({ file, line, message });
    }
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/** The file's text, a leading byte-order mark dropped (as the post loader does), or a UserError naming the file. */
export async function readQuestionsFile(file: string): Promise<string> {
  try {
    return (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`${file}: questions file not found (set it with --questions FILE)`);
    if (code === "EISDIR")
      throw new UserError(`${file} is a folder; --questions takes a .jsonl file (one question a line)`);
    throw error;
  }
}

/** Reads, parses and checks the questions; throws one UserError naming every problem. */
export async function loadQuestions(file: string, corpus: Corpus): Promise<Question[]> {
  const { questions, problems } = parseQuestions(file, await readQuestionsFile(file));
  const all = [...problems, ...checkQuestions(file, questions, corpus)].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (all.length > 0) throw problemsError(`${file}: bad questions`, all);
  return questions.map((q) => q.question);
}
