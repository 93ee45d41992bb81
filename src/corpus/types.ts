// The records the corpus stage hands to every later stage: posts, sections, questions.

/** One searchable unit: the text under one h1/h2/h3 heading (or before the first heading, headed by the post title). */
export interface Section {
  /**
   * The post's slug: its frontmatter `slug`, else its file name without `.mdx`/`.md` (a page bundle's
   * `my-post/index.mdx`: the folder's name). This is what answers must cite; no slug is inside another.
   */
  readonly post: string;
  /** Unique within the post (repeats are disambiguated, see corpus/sections.ts). */
  readonly heading: string;
  /** 1 for `#` and for the text before the first heading, 2 for `##`, 3 for `###`. */
  readonly level: 1 | 2 | 3;
  /** Clean prose: no imports, no JSX tags (their text children kept), code fences kept as text. */
  readonly text: string;
}

export interface Post {
  readonly slug: string;
  readonly title: string;
  /** Path of the file it was read from: the content folder joined with the file's path inside it. */
  readonly file: string;
  /** The YAML frontmatter as gray-matter parsed it (title, description, date, tags, ...). */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly sections: readonly Section[];
}

export interface Corpus {
  readonly dir: string;
  readonly posts: readonly Post[];
  /** Every post's sections, in post order then document order. */
  readonly sections: readonly Section[];
  /** sha256 (hex) over every post file's name (inside the folder) and bytes, sorted: keys caches and manifests. */
  readonly hash: string;
  /** Markdown files under the folder that are not posts (drafts, READMEs, symlink loops, ...), and why. */
  readonly leftOut: readonly LeftOut[];
}

/** A markdown file the loader did not read as a post. */
export interface LeftOut {
  /** Path inside the content folder, with `/` separators. */
  readonly file: string;
  readonly reason: string;
}

/** One line of a questions file, in the study's shape: one post and one section answer it. */
export interface OnePostQuestion {
  readonly id: string;
  readonly question: string;
  /** The slug of the post that answers it. */
  readonly post: string;
  /** The heading of the section that answers it, as the indexer names it. */
  readonly heading: string;
}

/** A question that needs one section from each of two different posts (compare, combine, follow one idea into another). */
export interface TwoPostQuestion {
  readonly id: string;
  readonly question: string;
  /** The two posts' slugs. */
  readonly posts: readonly [string, string];
  /** The heading in each post, in the same order. */
  readonly headings: readonly [string, string];
  /**
   * What each post contributes to the answer, in the same order: the detail the question asks of it that the
   * other post does not have. For the reader who writes or reviews the question; nothing scores with it.
   */
  readonly details?: readonly [string, string];
}

/**
 * One line of a questions file: `{id, question, post, heading}` or `{id, question, posts: [a, b], headings: [ha, hb]}`
 * (with an optional `details: [da, db]`).
 */
export type Question = OnePostQuestion | TwoPostQuestion;

export function isTwoPost(q: Question): q is TwoPostQuestion {
  return "posts" in q;
}

/** The posts that answer a question (its gold set G), in the file's order. */
export function questionPosts(q: Question): readonly string[] {
  return isTwoPost(q) ? q.posts : [q.post];
}

/** The headings that answer it, parallel to questionPosts. */
export function questionHeadings(q: Question): readonly string[] {
  return isTwoPost(q) ? q.headings : [q.heading];
}

/** A problem with one input file, reported with where it is. */
export interface InputProblem {
  readonly file: string;
  /** 1-based, where known. */
  readonly line?: number;
  readonly message: string;
}
