// What the loader made of a blog, post by post: how a user sees at a glance whether their blog was read right.
import path from "node:path";
import { cleanHeading } from "./clean-heading.ts";
import type { Corpus, LeftOut, Post } from "./types.ts";

export interface PostSummary {
  readonly slug: string;
  /** The file, relative to the content folder, with `/` separators. */
  readonly file: string;
  /** Sections by where they come from: the text before the first heading, then `#`, `##` and `###` headings. */
  readonly intro: number;
  readonly h1: number;
  readonly h2: number;
  readonly h3: number;
  /** The longest section by words of text (the first of equals), as the snippet and read_section count words. */
  readonly longest: { readonly heading: string; readonly words: number };
  /** Sections longer than the words read_section returns: their end is text no tool ever shows the model. */
  readonly overReadLimit: number;
  /** Headings with no text under them, which are not indexed. */
  readonly emptyHeadings: readonly string[];
  /** How many values of each prose attribute were kept as text, as `Tag attribute` -> count, in first-seen order. */
  readonly attributeProse: Readonly<Record<string, number>>;
  /** Headings deeper than the split, each kept as a line of the section named. */
  readonly foldedHeadings: Post["foldedHeadings"];
  /** What was dropped as markup, by kind. */
  readonly dropped: Post["dropped"];
  /** A site generator's own syntax read as the site reads it, by kind. */
  readonly siteSyntax: Post["siteSyntax"];
}

export interface CorpusSummary {
  readonly dir: string;
  readonly posts: readonly PostSummary[];
  readonly leftOut: readonly LeftOut[];
  readonly readLimit: number;
}

export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/**
 * The text before the first heading is a level-1 section headed by the title; a `#` section is level 1 too.
 * The intro can only be the first section, and a `#` heading equal to the title there was merged into it
 * (see sections.ts), so a first level-1 section headed by the title is the intro.
 */
function hasIntro(post: Post): boolean {
  const first = post.sections[0];
  return first !== undefined && first.level === 1 && first.heading === cleanHeading(post.title);
}

export function summarizeCorpus(corpus: Corpus, readLimit: number): CorpusSummary {
  const posts = corpus.posts.map((post): PostSummary => {
    const intro = hasIntro(post) ? 1 : 0;
    const count = (level: number) => post.sections.filter((s) => s.level === level).length;
    let longest = { heading: "", words: -1 };
    let overReadLimit = 0;
    for (const s of post.sections) {
      const words = wordCount(s.text);
      if (words > longest.words) longest = { heading: s.heading, words };
      if (words > readLimit) overReadLimit += 1;
    }
    const file = path.relative(corpus.dir, post.file).split(path.sep).join("/");
    const attributeProse: Record<string, number> = {};
    for (const kept of post.attributeProse) {
      const key = `<${kept.tag} ${kept.attribute}>`;
      attributeProse[key] = (attributeProse[key] ?? 0) + 1;
    }
    return {
      slug: post.slug,
      file,
      intro,
      h1: count(1) - intro,
      h2: count(2),
      h3: count(3),
      longest,
      overReadLimit,
      emptyHeadings: post.emptyHeadings,
      attributeProse,
      foldedHeadings: post.foldedHeadings,
      dropped: post.dropped,
      siteSyntax: post.siteSyntax,
    };
  });
  return { dir: corpus.dir, posts, leftOut: corpus.leftOut, readLimit };
}

/** The widest a summary line gets: a terminal's 120 columns. */
export const SUMMARY_WIDTH = 120;

/** `text` in at most `width` characters: its end cut (`tail`) or its middle, an ellipsis where it was cut. */
function fit(text: string, width: number, cut: "tail" | "middle"): string {
  if (text.length <= width) return text;
  if (cut === "tail") return `${text.slice(0, width - 1)}…`;
  const head = Math.ceil((width - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (width - 1 - head))}`;
}

/**
 * Left-aligned text columns, numbers right-aligned, two spaces apart, in at most `maxWidth` characters a line:
 * the last column is cut first (down to 24 characters), then the widest of the `narrowable` ones (down to 16), each
 * in its middle.
 */
function columns(
  rows: readonly (readonly string[])[],
  numeric: readonly boolean[],
  maxWidth: number,
  narrowable: readonly number[],
): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const last = widths.length - 1;
  let excess = widths.reduce((a, b) => a + b, 0) + 2 * last - maxWidth;
  const cut = Math.max(0, Math.min(excess, widths[last]! - 24));
  widths[last] = widths[last]! - cut;
  excess -= cut;
  // Then the widest of the others, down to the next widest, until the line fits or all are at 16.
  while (excess > 0) {
    const open = narrowable.filter((i) => widths[i]! > 16).sort((a, b) => widths[b]! - widths[a]!);
    if (open.length === 0) break;
    const next = open.length > 1 ? widths[open[1]!]! : 16;
    const by = Math.min(excess, Math.max(1, widths[open[0]!]! - next));
    widths[open[0]!] = widths[open[0]!]! - by;
    excess -= by;
  }
  return rows.map((row) =>
    row
      .map((cell, i) => {
        if (numeric[i]) return cell.padStart(widths[i]!);
        const text = fit(cell, widths[i]!, i === last ? "tail" : "middle");
        return i === last ? text : text.padEnd(widths[i]!);
      })
      .join("  ")
      .trimEnd(),
  );
}

/**
 * The summary as text:
 *   content/posts: 25 posts, 436 sections (intro 25, # 0, ## 300, ### 111), 1 file left out
 *   slug    file        intro  #  ##  ###  longest section
 *   my-post my-post.mdx     1  0  12    3  412 words: Why it matters *
 *   ...
 * A longest section over the read limit is starred, with a line saying how many sections are that long.
 * Headings left out for having no text, and the prose attributes whose text was kept, are listed after the table.
 */
export function formatCorpusSummary(summary: CorpusSummary): string {
  const readLimit = summary.readLimit;
  const sum = (key: "intro" | "h1" | "h2" | "h3") => summary.posts.reduce((n, p) => n + p[key], 0);
  const sections = sum("intro") + sum("h1") + sum("h2") + sum("h3");
  const left = summary.leftOut.length;
  const posts = `${summary.posts.length} ${summary.posts.length === 1 ? "post" : "posts"}`;
  const levels = `intro ${sum("intro")}, # ${sum("h1")}, ## ${sum("h2")}, ### ${sum("h3")}`;
  const empty = summary.posts.reduce((n, p) => n + p.emptyHeadings.length, 0);
  const emptyNote = empty === 0 ? "" : `, ${empty} empty ${empty === 1 ? "heading" : "headings"} not indexed`;
  const lines = [
    `${summary.dir}: ${posts}, ${sections} sections (${levels})${emptyNote}, ${left} ${left === 1 ? "file" : "files"} left out`,
    "",
  ];
  const rows = summary.posts.map((p) => [
    p.slug,
    p.file,
    String(p.intro),
    String(p.h1),
    String(p.h2),
    String(p.h3),
    `${p.longest.words} words: ${p.longest.heading}${p.longest.words > readLimit ? " *" : ""}`,
  ]);
  const header = ["slug", "file", "intro", "#", "##", "###", "longest section"];
  lines.push(...columns([header, ...rows], [false, false, true, true, true, true, false], SUMMARY_WIDTH, [1, 0]));
  const over = summary.posts.reduce((n, p) => n + p.overReadLimit, 0);
  if (over > 0) {
    const long = summary.posts.filter((p) => p.overReadLimit > 0).length;
    const what = `${over} ${over === 1 ? "section" : "sections"} in ${long} ${long === 1 ? "post" : "posts"}`;
    const limit = `longer than the ${readLimit} words read_section returns`;
    lines.push(
      "",
      `* ${what} ${over === 1 ? "is" : "are"} ${limit} (the rest of such a section is never shown to the model)`,
    );
  }
  if (empty > 0) {
    lines.push("", "not indexed, no text under the heading (a heading followed by its subheading):");
    for (const p of summary.posts.filter((post) => post.emptyHeadings.length > 0))
      lines.push(`  ${p.slug}: ${p.emptyHeadings.join(" | ")}`);
  }
  const kept: Record<string, number> = {};
  for (const p of summary.posts)
    for (const [key, n] of Object.entries(p.attributeProse)) kept[key] = (kept[key] ?? 0) + n;
  if (Object.keys(kept).length > 0) {
    const listed = Object.entries(kept).map(([key, n]) => `${key} ${n}`);
    lines.push("", `attribute prose kept as text: ${listed.join(", ")}`);
  }
  lines.push(...foldedLines(summary), ...siteSyntaxLines(summary), ...droppedLines(summary));
  if (left > 0) {
    lines.push("", "left out:", ...summary.leftOut.map((item) => `  ${item.file}: ${item.reason}`));
  }
  return `${lines.join("\n")}\n`;
}

/** The headings folded into a section, post by post: a question may name one, and must name its section instead. */
function foldedLines(summary: CorpusSummary): string[] {
  const folded = summary.posts.reduce((n, p) => n + p.foldedHeadings.length, 0);
  if (folded === 0) return [];
  const lines = [
    "",
    `folded into their section (deeper than the split): ${folded} ${folded === 1 ? "heading" : "headings"}`,
  ];
  for (const p of summary.posts.filter((post) => post.foldedHeadings.length > 0))
    lines.push(`  ${p.slug}: ${p.foldedHeadings.map((f) => `${f.heading} (in ${f.section})`).join(" | ")}`);
  return lines;
}

/** The site generator's own syntax that was read, summed over the posts, by kind. */
function siteSyntaxLines(summary: CorpusSummary): string[] {
  const read: Record<string, number> = {};
  for (const p of summary.posts)
    for (const [kind, n] of Object.entries(p.siteSyntax)) read[kind] = (read[kind] ?? 0) + (n ?? 0);
  const listed = Object.entries(read).map(([kind, n]) => `${kind} ${n}`);
  return listed.length === 0 ? [] : ["", `read as the site reads it: ${listed.join(", ")}`];
}

/** What never reached a section's text, summed over the posts, by kind. */
function droppedLines(summary: CorpusSummary): string[] {
  const dropped: Record<string, number> = {};
  for (const p of summary.posts)
    for (const [kind, n] of Object.entries(p.dropped)) dropped[kind] = (dropped[kind] ?? 0) + (n ?? 0);
  const listed = Object.entries(dropped).map(([kind, n]) => `${kind} ${n}`);
  return listed.length === 0 ? [] : ["", `dropped as markup: ${listed.join(", ")}`];
}
