// Walks an MDX body line by line: finds h1-h3 headings outside code fences and drops ESM lines and comments.

/** A run of lines of one kind: prose (to be cleaned of JSX) or the inside of a code fence (kept as written). */
export interface Chunk {
  readonly kind: "prose" | "code";
  readonly lines: string[];
}

/** The lines under one heading, before cleaning. `heading` is undefined for the text before the first heading. */
export interface RawBlock {
  readonly heading: string | undefined;
  /** 1 for `#` (and for the text before the first heading), 2 for `##`, 3 for `###`. */
  readonly level: 1 | 2 | 3;
  /** 1-based file line of the heading (of the body's start for the first block). */
  readonly line: number;
  readonly chunks: Chunk[];
}

export interface Scan {
  readonly blocks: readonly RawBlock[];
  readonly problems: readonly { readonly line: number; readonly message: string }[];
}

const HEADING = /^ {0,3}(#{1,3})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const EMPTY_HEADING = /^ {0,3}#{1,3}[ \t]*#*[ \t]*$/;
const FENCE_OPEN = /^\s*(`{3,}|~{3,})(.*)$/;
/** MDX's ESM: a paragraph that starts with import/export is JavaScript up to the next blank line. */
const ESM_START = /^(?:import|export)(?=[\s{*])/;
const COMMENTS = [
  { open: "<!--", close: "-->" },
  { open: "{/*", close: "*/}" },
] as const;

export interface ScanOptions {
  /**
   * MDX (the default): a paragraph starting with `import`/`export` is JavaScript, and is dropped. Plain markdown
   * (`.md`) has no such thing, so there it is prose ("export PATH first" is a sentence).
   */
  readonly esm?: boolean;
}

/**
 * `bodyLine` is the file line of the body's first line, so every line number reported is a file line.
 * Markdown the scanner does not treat as a heading: setext headings (a line underlined with --- or ===),
 * `#` lines inside code fences, inside comments or inside ESM, `#word` with no space, and h4-h6 (kept as prose lines).
 * Comments are found by plain search, so `<!--` written inside an inline code span on a prose line starts one too.
 */
export function scanBody(body: string, bodyLine: number, options: ScanOptions = {}): Scan {
  const esm = options.esm ?? true;
  const blocks: RawBlock[] = [{ heading: undefined, level: 1, line: bodyLine, chunks: [] }];
  const problems: { line: number; message: string }[] = [];
  let fence: { marker: string; line: number } | undefined;
  let comment: { close: string; line: number } | undefined;
  let inEsm = false;
  let previousBlank = true;

  const push = (kind: Chunk["kind"], line: string) => {
    const chunks = blocks[blocks.length - 1]!.chunks;
    const last = chunks[chunks.length - 1];
    if (last?.kind === kind) last.lines.push(line);
    else chunks.push({ kind, lines: [line] });
  };

  body.split("\n").forEach((original, index) => {
    const lineNo = bodyLine + index;
    // Inside a code fence every line is code until a closing fence of the same character, at least as long.
    if (fence) {
      const close = original.trim();
      if (
        close.length >= fence.marker.length &&
        close === close[0]!.repeat(close.length) &&
        close[0] === fence.marker[0]
      )
        fence = undefined;
      else push("code", original);
      return;
    }
    // Comments may span lines; what is left of a line after removing them is scanned as usual.
    let line = original;
    for (;;) {
      if (comment) {
        const end = line.indexOf(comment.close);
        if (end < 0) return;
        line = line.slice(end + comment.close.length);
        comment = undefined;
      }
      const opens = COMMENTS.map((c) => ({ ...c, at: line.indexOf(c.open) })).filter((c) => c.at >= 0);
      const first = opens.sort((a, b) => a.at - b.at)[0];
      if (!first) break;
      const rest = line.slice(first.at + first.open.length);
      const end = rest.indexOf(first.close);
      if (end >= 0) {
        line = line.slice(0, first.at) + rest.slice(end + first.close.length);
      } else {
        line = line.slice(0, first.at);
        comment = { close: first.close, line: lineNo };
        break;
      }
    }
    const blank = line.trim() === "";
    if (inEsm) {
      if (blank) inEsm = false;
      previousBlank = blank;
      return;
    }
    const fenceOpen = FENCE_OPEN.exec(line);
    if (fenceOpen && !(fenceOpen[1]!.startsWith("`") && fenceOpen[2]!.includes("`"))) {
      fence = { marker: fenceOpen[1]!, line: lineNo };
    } else if (esm && previousBlank && ESM_START.test(line)) {
      inEsm = true;
    } else if (EMPTY_HEADING.test(line)) {
      problems.push({ line: lineNo, message: "heading has no text" });
    } else {
      const heading = HEADING.exec(line);
      if (heading)
        blocks.push({ heading: heading[2]!, level: heading[1]!.length as 1 | 2 | 3, line: lineNo, chunks: [] });
      else push("prose", line);
    }
    previousBlank = blank;
  });

  if (fence) problems.push({ line: fence.line, message: `code fence ${fence.marker} is never closed` });
  if (comment) problems.push({ line: comment.line, message: `comment is never closed (no ${comment.close})` });
  return { blocks, problems };
}
