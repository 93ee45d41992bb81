// The study's strict rescore: classify the text after the last "Source:" by the blog's slugs it contains.

export type SourceClass = "none" | "one-real" | "several" | "invented";

export interface SourceVerdict {
  readonly kind: SourceClass;
  /** The text after the last "Source:"; undefined when there is none. */
  readonly line: string | undefined;
  /** The slugs found in that line, in the order of the slug list. */
  readonly posts: readonly string[];
}

/**
 * none: no "Source:" at all; one-real: exactly one slug in the line; several: more than one;
 * invented: a line naming no slug ("Source: <post>", "[Blog Post Title]", a made-up name).
 * Slugs match as substrings, which is why no slug may be a substring of another.
 */
export function classifySource(answer: string, slugs: readonly string[]): SourceVerdict {
  const at = answer.lastIndexOf("Source:");
  if (at === -1) return { kind: "none", line: undefined, posts: [] };
  const line = answer.slice(at + "Source:".length);
  const posts = slugs.filter((slug) => line.includes(slug));
  const kind = posts.length === 0 ? "invented" : posts.length === 1 ? "one-real" : "several";
  return { kind, line, posts };
}

/**
 * Whether a slug the source line names stands there only inside a longer word ("rag" in "leverage-notes"). The
 * study's substring rule still counts it as naming the post; this says how often that decided a verdict.
 */
export function slugOnlyInsideWord(verdict: SourceVerdict): boolean {
  const line = verdict.line ?? "";
  return verdict.posts.some((slug) => !standsAlone(line, slug));
}

/** A letter, digit, underscore or hyphen: what a slug's neighbour must not be for the slug to stand alone. */
const WORD_CHAR = /[\p{L}\p{N}_-]/u;

function standsAlone(text: string, slug: string): boolean {
  for (let at = text.indexOf(slug); at !== -1; at = text.indexOf(slug, at + 1)) {
    const before = text[at - 1];
    const after = text[at + slug.length];
    if (!(before !== undefined && WORD_CHAR.test(before)) && !(after !== undefined && WORD_CHAR.test(after)))
      return true;
  }
  return false;
}

/** Strict cites right: one real post, and it is the right one. */
export function citesRightStrict(verdict: SourceVerdict, goldPost: string): boolean {
  return verdict.kind === "one-real" && verdict.posts[0] === goldPost;
}

/** The cited post (one-real) was among the posts the run's searches and reads returned. */
export function citationGrounded(verdict: SourceVerdict, seenPosts: readonly string[]): boolean {
  return verdict.kind === "one-real" && seenPosts.includes(verdict.posts[0]!);
}
