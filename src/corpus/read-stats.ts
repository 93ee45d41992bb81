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

/** Filled while a post is read; kept and dropped in document order of first sight. */
export interface ReadStats {
  readonly kept: KeptAttribute[];
  readonly dropped: Partial<Record<DroppedKind, number>>;
}

export const newReadStats = (): ReadStats => ({ kept: [], dropped: {} });

export function drop(stats: ReadStats, kind: DroppedKind): void {
  stats.dropped[kind] = (stats.dropped[kind] ?? 0) + 1;
}
