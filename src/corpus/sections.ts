// Turns a post's blocks into Sections: clean headings, headings unique within the post, empty ones set aside.
import type { FoldedHeading, Section } from "./types.ts";
import type { Block, HeadingLevel } from "./split-tree.ts";
import { cleanHeading } from "./clean-heading.ts";

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
  /** Headings deeper than the split, each with the section whose text holds it. */
  readonly foldedHeadings: readonly FoldedHeading[];
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
function mergeTitleHeading(title: string, blocks: readonly Block[]): readonly Block[] {
  const [intro, first, ...rest] = blocks;
  if (intro === undefined || first?.heading === undefined || first.level !== 1 || !repeatsTitle(first.heading, title))
    return blocks;
  const text = [intro.text, first.text].filter((t) => t !== "").join("\n\n");
  return [{ ...intro, text, folded: [...intro.folded, ...first.folded] }, ...rest];
}

/**
 * One Section per heading the post is split at with text under it, plus a level-1 section headed by the post's title
 * for the text before the first heading, when there is any. A heading with no text before the next one (a parent
 * heading followed by its subheading) is not indexed: an empty section ranks on its heading's words alone, above the
 * section that answers, and gives the model nothing to read. It is left out rather than merged into the next
 * section, so every indexed heading stays the one its author wrote; `sections --summary` counts those left out.
 * Headings are made unique before that, so a section is named the same whether or not an empty one precedes it.
 */
export function buildSections(post: string, title: string, blocks: readonly Block[]): SectionsResult {
  const problems: { line: number; message: string }[] = [];
  const drafts: { heading: string; level: HeadingLevel; text: string; folded: readonly string[] }[] = [];
  for (const block of mergeTitleHeading(title, blocks)) {
    if (block.heading === undefined) {
      if (block.text !== "")
        drafts.push({ heading: cleanHeading(title), level: 1, text: block.text, folded: block.folded });
      continue;
    }
    const heading = cleanHeading(block.heading);
    if (heading === "")
      problems.push({ line: block.line, message: `heading "${block.heading}" has no text once markup is removed` });
    else drafts.push({ heading, level: block.level, text: block.text, folded: block.folded });
  }
  const names = disambiguateHeadings(drafts.map((d) => d.heading));
  const named = drafts.map((d, i) => ({ post, heading: names[i]!, level: d.level, text: d.text }));
  const sections = named.filter((s) => s.text !== "");
  const emptyHeadings = named.filter((s) => s.text === "").map((s) => s.heading);
  const foldedHeadings = drafts.flatMap((d, i) => d.folded.map((heading) => ({ heading, section: names[i]! })));
  return { sections, emptyHeadings, foldedHeadings, problems };
}
