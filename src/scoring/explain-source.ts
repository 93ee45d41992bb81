// Why a source line got its strict class, in words a reader of one transcript can check against the answer.
import type { SourceVerdict } from "./strict.ts";

/**
 * Example: "one real post: kv-cache-inference, the right one; the run's tools had shown it".
 * `seenPosts` are the posts this run's searches and reads returned: a right citation of a post the tools never
 * showed was not found by the run (a guess, or copied from the prompt).
 */
export function explainSource(verdict: SourceVerdict, goldPost: string, seenPosts: readonly string[]): string {
  switch (verdict.kind) {
    case "none":
      return 'none: the answer has no "Source:"';
    case "invented":
      return `placeholder or invented: the text after the last "Source:" (${quote(verdict.line ?? "")}) names no post of the blog`;
    case "several":
      return `several posts: the source line names ${verdict.posts.length} (${verdict.posts.join(", ")}); strict scoring wants exactly one`;
    case "one-real": {
      const post = verdict.posts[0]!;
      const right = post === goldPost ? "the right one" : `not the right one (${goldPost})`;
      const grounded = seenPosts.includes(post) ? "the run's tools had shown it" : "the run's tools never showed it";
      return `one real post: ${post}, ${right}; ${grounded}`;
    }
  }
}

function quote(line: string): string {
  const text = line.trim().replace(/\s+/g, " ");
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}
