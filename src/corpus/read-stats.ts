// What reading a post kept of its markup and what it dropped, by kind: the counts `sections --summary` prints.

/** One prose value kept as text: the element it sat on and where (`alt`, `imgProps.alt`, `(children)`). */
export interface KeptAttribute {
  readonly tag: string;
  readonly attribute: string;
}

/** What never reaches a section's text, by kind: ESM, expressions, comments, markup attributes, URLs. */
export type DroppedKind =
  | "import/export"
  | "{expression}"
  | "comment"
  | "JSX attribute"
  | "link URL"
  | "image URL"
  | "link definition";

/**
 * A site generator's own syntax that was read as the site reads it: Docusaurus's heading ids, admonitions,
 * mdx-code-block fences, tab names and truncate markers; a `:name` or `::name` directive no site renders, kept as
 * written (Docusaurus does the same with one it has no use for).
 */
export type SiteSyntaxKind =
  | "heading id"
  | "admonition"
  | "mdx-code-block"
  | "tab label"
  | "truncate marker"
  | "directive as text";

/** Filled while a post is read; kept and dropped in document order of first sight. */
export interface ReadStats {
  readonly kept: KeptAttribute[];
  readonly dropped: Partial<Record<DroppedKind, number>>;
  readonly siteSyntax: Partial<Record<SiteSyntaxKind, number>>;
}

export const newReadStats = (): ReadStats => ({ kept: [], dropped: {}, siteSyntax: {} });

export function sawSyntax(stats: ReadStats, kind: SiteSyntaxKind, n = 1): void {
  if (n > 0) stats.siteSyntax[kind] = (stats.siteSyntax[kind] ?? 0) + n;
}

export function drop(stats: ReadStats, kind: DroppedKind): void {
  stats.dropped[kind] = (stats.dropped[kind] ?? 0) + 1;
}
