// How many one-post questions each post has, and whether that is the study's shape (three per post).
import { isTwoPost, type Question } from "./types.ts";

/** The study asks exactly this many questions about each post it picks. */
export const STUDY_QUESTIONS_PER_POST = 3;

/** Posts by how many one-post questions they have: `[[1, 6]]` is six posts with one question each. */
export function questionsPerPost(questions: readonly Question[]): readonly (readonly [number, number])[] {
  const perPost = new Map<string, number>();
  for (const q of questions) if (!isTwoPost(q)) perPost.set(q.post, (perPost.get(q.post) ?? 0) + 1);
  const posts = new Map<number, number>();
  for (const n of perPost.values()) posts.set(n, (posts.get(n) ?? 0) + 1);
  return [...posts].sort((a, b) => b[0] - a[0]);
}

/** "questions per post: 3 on 10 posts" or "questions per post: 2 on 3 posts, 1 on 1 post"; "" with no one-post question. */
export function describeQuestionShape(questions: readonly Question[]): string {
  const shape = questionsPerPost(questions);
  if (shape.length === 0) return "";
  return `questions per post: ${shape.map(([n, posts]) => `${n} on ${posts} ${posts === 1 ? "post" : "posts"}`).join(", ")}`;
}

/**
 * A warning when the one-post questions are not three about every post, or undefined. Not an error: any shape runs
 * and scores; only the study's numbers (and its paired comparisons per post) assume its shape.
 */
export function questionShapeWarning(questions: readonly Question[]): string | undefined {
  const shape = questionsPerPost(questions);
  if (shape.length === 0 || (shape.length === 1 && shape[0]![0] === STUDY_QUESTIONS_PER_POST)) return undefined;
  return (
    `warning: ${describeQuestionShape(questions)}, not the study's ${STUDY_QUESTIONS_PER_POST} on each: ` +
    "fine for your own blog, but its numbers are not comparable with the study's"
  );
}
