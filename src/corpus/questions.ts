// Reads questions.jsonl and checks it against the corpus: every problem named with its line.
import { readFile } from "node:fs/promises";
import { UserError } from "../common/index.ts";
import { isTwoPost, questionHeadings, questionPosts, type Corpus, type InputProblem, type Question } from "./types.ts";
import { problemsError } from "./load-corpus.ts";
import { nearest } from "./nearest.ts";

/** The study asks exactly this many questions about each post it picks. */
export const QUESTIONS_PER_POST = 3;

export interface LocatedQuestion {
  /** 1-based line in the questions file. */
  readonly line: number;
  readonly question: Question;
}

/**
 * Parses JSONL text; blank lines are skipped. A line is a JSON object with string `id` and `question` and either
 * string `post` and `heading` (one post) or `posts: [a, b]` and `headings: [ha, hb]` (two posts, optionally with
 * `details: [da, db]`, what each post contributes to the answer); anything else becomes a problem naming the line.
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

const isText = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";
const isPair = (v: unknown): v is [string, string] => Array.isArray(v) && v.length === 2 && v.every(isText);

/** The question on one line, or what is wrong with it. */
function questionFrom(record: Record<string, unknown>): Question | string {
  const own = (field: string) => Object.hasOwn(record, field);
  const twoPost = own("posts") || own("headings");
  if (twoPost && (own("post") || own("heading")))
    return 'has both "post"/"heading" (one post) and "posts"/"headings" (two posts): use one shape';
  const fields = twoPost ? (["id", "question"] as const) : (["id", "question", "post", "heading"] as const);
  const missing: string[] = fields.filter((field) => !isText(record[field]));
  if (missing.length > 0)
    return `missing field ${missing.map((f) => `"${f}"`).join(", ")} (each must be a non-empty string)`;
  const [id, question] = [record.id as string, record.question as string];
  if (!twoPost) {
    if (own("details"))
      return 'field "details" belongs to two-post questions (what each of "posts" contributes); this one has one post';
    return { id, question, post: record.post as string, heading: record.heading as string };
  }
  const bad: string[] = (["posts", "headings"] as const).filter((field) => !isPair(record[field]));
  if (own("details") && !isPair(record.details)) bad.push("details");
  if (bad.length > 0) return `field ${bad.map((f) => `"${f}"`).join(", ")} must be a list of two non-empty strings`;
  const [posts, headings] = [record.posts as [string, string], record.headings as [string, string]];
  if (posts[0] === posts[1]) return `"posts" names "${posts[0]}" twice; a two-post question needs two different posts`;
  const parsed = { id, question, posts: [posts[0], posts[1]], headings: [headings[0], headings[1]] } as const;
  if (!own("details")) return parsed;
  const details = record.details as [string, string];
  return { ...parsed, details: [details[0], details[1]] };
}

/**
 * The corpus checks: ids unique, every post and heading exists as the indexer names it, and, for one-post
 * questions (the study's shape), exactly 3 questions per post. Two-post questions have no count per post.
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
  const linesOfPost = new Map<string, number[]>();
  for (const { line, question } of questions) {
    const earlier = firstLineOfId.get(question.id);
    if (earlier !== undefined)
      problems.push({ file, line, message: `id "${question.id}" repeats (first used on line ${earlier})` });
    else firstLineOfId.set(question.id, line);

    if (!isTwoPost(question)) linesOfPost.set(question.post, [...(linesOfPost.get(question.post) ?? []), line]);
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
      if (!post.sections.some((s) => s.heading === heading)) {
        const near = nearest(
          heading,
          post.sections.map((s) => s.heading),
        );
        const hint = near ? ` (did you mean "${near}"?)` : "";
        problems.push({ file, line, message: `heading "${heading}" is not a section of post "${slug}"${hint}` });
      }
    });
  }
  for (const [post, lines] of linesOfPost) {
    if (lines.length !== QUESTIONS_PER_POST) {
      const message = `post "${post}" has ${lines.length} question${lines.length === 1 ? "" : "s"} (lines ${lines.join(", ")}); each post needs exactly ${QUESTIONS_PER_POST}`;
      problems.push({ file, line: lines[0]!, message });
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
