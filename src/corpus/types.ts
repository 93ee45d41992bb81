// The records the corpus stage hands to every later stage: posts, sections, questions.
import type { Question, TwoPostQuestion } from "./question-schema.ts";
import type { DroppedKind, KeptAttribute, SiteSyntaxKind } from "./read-stats.ts";
import type { HeadingLevel } from "./split-tree.ts";
import type { SlugRule } from "./site-layout.ts";

/** One searchable unit: the text under one heading the post is split at (h1-h3 by default) (or before the first heading, headed by the post title). */
export interface Section {
  /**
   * The post's slug: its frontmatter `slug`, else its file name without `.mdx`/`.md` (a page bundle's
   * `my-post/index.mdx`: the folder's name; on a Docusaurus blog, without its date: site-layout.ts). This is what
   * answers must cite; no slug is inside another.
   */
  readonly post: string;
  /** Unique within the post (repeats are disambiguated, see corpus/sections.ts). */
  readonly heading: string;
  /** 1 for `#` and for the text before the first heading, 2 for `##`, 3 for `###` (deeper only when split deeper). */
  readonly level: HeadingLevel;
  /**
   * The markdown as written, less its markup: no ESM, expressions or JSX tags (their children's text and prose
   * attributes kept), links as their text, images as their alt; code blocks with their fences and language.
   */
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
  /** Headings with no text under them, so not indexed (cleaned and made unique like the sections' headings). */
  readonly emptyHeadings: readonly string[];
  /** The JSX attributes whose text was kept in the sections, one entry per value kept. */
  readonly attributeProse: readonly KeptAttribute[];
  /** What was dropped as markup, by kind. */
  readonly dropped: Readonly<Partial<Record<DroppedKind, number>>>;
  /** A site generator's own syntax read as the site reads it (Docusaurus's heading ids, admonitions, tabs...), by kind. */
  readonly siteSyntax: Readonly<Partial<Record<SiteSyntaxKind, number>>>;
  /** Headings deeper than the split, kept as a line of the section named. */
  readonly foldedHeadings: readonly FoldedHeading[];
}

/** A heading deeper than the post is split at: its text is a line of `section`. */
export interface FoldedHeading {
  readonly heading: string;
  readonly section: string;
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
  /** How each post's path gave its slug where the frontmatter has none (see site-layout.ts). */
  readonly slugRule: SlugRule;
}

/** A markdown file the loader did not read as a post. */
export interface LeftOut {
  /** Path inside the content folder, with `/` separators. */
  readonly file: string;
  readonly reason: string;
}

// Defined by the questions file's schema, so that the file format and the type cannot drift apart.
export type { Question, TwoPostQuestion } from "./question-schema.ts";

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
  /** 1-based, where the parser said. */
  readonly column?: number;
  readonly message: string;
}
