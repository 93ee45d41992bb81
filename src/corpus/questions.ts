// Reads questions.jsonl and checks it against the corpus: every problem named with its line.
import { readFile } from "node:fs/promises";
import { UserError } from "../errors.ts";
import type { Corpus, InputProblem, Question } from "./types.ts";
import { problemsError } from "./load-corpus.ts";

/** The study asks exactly this many questions about each post it picks. */
export const QUESTIONS_PER_POST = 3;

export interface LocatedQuestion {
  /** 1-based line in the questions file. */
  readonly line: number;
  readonly question: Question;
}

const FIELDS = ["id", "question", "post", "heading"] as const;

/** Parses JSONL text; blank lines are skipped. Lines that are not a JSON object with the four string fields become problems. */
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
    const record = value as Record<string, unknown>;
    const missing = FIELDS.filter((field) => typeof record[field] !== "string" || (record[field] as string).trim() === "");
    if (missing.length > 0) {
      problems.push({ file, line, message: `missing field ${missing.map((f) => `"${f}"`).join(", ")} (each must be a non-empty string)` });
      return;
    }
    const [id, question, post, heading] = FIELDS.map((field) => record[field] as string) as [string, string, string, string];
    questions.push({ line, question: { id, question, post, heading } });
  });
  if (questions.length === 0 && problems.length === 0) problems.push({ file, message: "no questions in the file" });
  return { questions, problems };
}

/** The corpus checks: ids unique, every post and heading exists as the indexer names it, exactly 3 questions per post. */
export function checkQuestions(file: string, questions: readonly LocatedQuestion[], corpus: Corpus): InputProblem[] {
  const problems: InputProblem[] = [];
  const posts = new Map(corpus.posts.map((post) => [post.slug, post]));
  const firstLineOfId = new Map<string, number>();
  const linesOfPost = new Map<string, number[]>();
  for (const { line, question } of questions) {
    const earlier = firstLineOfId.get(question.id);
    if (earlier !== undefined) problems.push({ file, line, message: `id "${question.id}" repeats (first used on line ${earlier})` });
    else firstLineOfId.set(question.id, line);

    linesOfPost.set(question.post, [...(linesOfPost.get(question.post) ?? []), line]);
    const post = posts.get(question.post);
    if (!post) {
      problems.push({ file, line, message: `post "${question.post}" is not in the corpus (${corpus.dir})` });
      continue;
    }
    if (!post.sections.some((s) => s.heading === question.heading)) {
      const near = post.sections.find((s) => s.heading.toLowerCase() === question.heading.toLowerCase());
      const hint = near ? ` (did you mean "${near.heading}"?)` : "";
      problems.push({ file, line, message: `heading "${question.heading}" is not a section of post "${question.post}"${hint}` });
    }
  }
  for (const [post, lines] of linesOfPost) {
    if (lines.length !== QUESTIONS_PER_POST) {
      const message = `post "${post}" has ${lines.length} question${lines.length === 1 ? "" : "s"} (lines ${lines.join(", ")}); each post needs exactly ${QUESTIONS_PER_POST}`;
      problems.push({ file, line: lines[0]!, message });
    }
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

export async function readQuestionsFile(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`${file}: questions file not found (set it with --questions FILE)`);
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
