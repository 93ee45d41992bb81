// Turns a scanned post body into Sections: clean text, clean headings, and headings unique within the post.
import type { Section } from "./types.ts";
import type { Chunk, RawBlock } from "./scan-body.ts";
import { cleanHeading } from "./clean-heading.ts";
import { type KeptAttribute, PROSE_ATTRIBUTES, stripTagsKeepingProse } from "./jsx-tags.ts";

/**
 * Prose loses its JSX tags (children kept, and the text of prose attributes); code is kept as written.
 * Runs of blank lines shrink to one.
 */
function chunkText(
  chunks: readonly Chunk[],
  attributes: readonly string[],
): { readonly text: string; readonly kept: readonly KeptAttribute[] } {
  const kept: KeptAttribute[] = [];
  const text = chunks
    .map((chunk) => {
      if (chunk.kind === "code") return chunk.lines.join("\n");
      const stripped = stripTagsKeepingProse(chunk.lines.join("\n"), attributes);
      kept.push(...stripped.kept);
      return stripped.text;
    })
    .join("\n");
  const clean = text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { text: clean, kept };
}

/**
 * Makes headings unique within one post, stably (the same post always gets the same names):
 * the first use of a heading keeps it as written; each later repeat, in document order, becomes
 * "Heading (n)" with the smallest n >= 2 that no heading in the post is already called.
 * So "Example", "Example", "Example (2)" become "Example", "Example (3)", "Example (2)":
 * a heading the author wrote is never renamed to make room for a repeat.
 */
export function disambiguateHeadings(headings: readonly string[]): string[] {
  const taken = new Set(headings);
  const seen = new Set<string>();
  return headings.map((heading) => {
    if (!seen.has(heading)) {
      seen.add(heading);
      return heading;
    }
    let n = 2;
    while (taken.has(`${heading} (${n})`)) n += 1;
    const name = `${heading} (${n})`;
    taken.add(name);
    return name;
  });
}

export interface SectionsResult {
  readonly sections: readonly Section[];
  /** Headings with no text under them before the next heading (a heading followed by its subheading): not indexed. */
  readonly emptyHeadings: readonly string[];
  /** The prose attributes whose text was kept, in document order. */
  readonly attributeProse: readonly KeptAttribute[];
  readonly problems: readonly { readonly line: number; readonly message: string }[];
}

/** True when a heading says the same as the title: same words, case and markup aside. */
function repeatsTitle(heading: string, title: string): boolean {
  return cleanHeading(heading).toLowerCase() === cleanHeading(title).toLowerCase();
}

/**
 * Many blogs open the body with `# <the title>` (the page's h1); that heading is the title again, not a section:
 * its text joins the text before it, headed by the title. Only the post's first heading, and only a `#` one.
 */
function mergeTitleHeading(title: string, blocks: readonly RawBlock[]): readonly RawBlock[] {
  const [intro, first, ...rest] = blocks;
  if (intro === undefined || first?.heading === undefined || first.level !== 1 || !repeatsTitle(first.heading, title))
    return blocks;
  return [{ ...intro, chunks: [...intro.chunks, ...first.chunks] }, ...rest];
}

/**
 * One Section per h1/h2/h3 heading with text under it, plus a level-1 section headed by the post's title for the
 * text before the first heading, when there is any. A heading with no text before the next one (a parent heading
 * followed by its subheading) is not indexed: an empty section ranks on its heading's words alone, above the
 * section that answers, and gives the model nothing to read. It is left out rather than merged into the next
 * section, so every indexed heading stays the one its author wrote; `sections --summary` counts those left out.
 * Headings are made unique before that, so a section is named the same whether or not an empty one precedes it.
 * A blog that uses `##` and `###` only, with text under each, splits exactly as it did before `#` headings were read.
 */
export function buildSections(
  post: string,
  title: string,
  blocks: readonly RawBlock[],
  attributes: readonly string[] = PROSE_ATTRIBUTES,
): SectionsResult {
  const problems: { line: number; message: string }[] = [];
  const drafts: { heading: string; level: 1 | 2 | 3; text: string }[] = [];
  const attributeProse: KeptAttribute[] = [];
  for (const block of mergeTitleHeading(title, blocks)) {
    const { text, kept } = chunkText(block.chunks, attributes);
    attributeProse.push(...kept);
    if (block.heading === undefined) {
      if (text !== "") drafts.push({ heading: cleanHeading(title), level: 1, text });
      continue;
    }
    const heading = cleanHeading(block.heading);
    if (heading === "")
      problems.push({ line: block.line, message: `heading "${block.heading}" has no text once markup is removed` });
    else drafts.push({ heading, level: block.level, text });
  }
  const names = disambiguateHeadings(drafts.map((d) => d.heading));
  const named = drafts.map((d, i) => ({ post, heading: names[i]!, level: d.level, text: d.text }));
  const sections = named.filter((s) => s.text !== "");
  const emptyHeadings = named.filter((s) => s.text === "").map((s) => s.heading);
  return { sections, emptyHeadings, attributeProse, problems };
}
