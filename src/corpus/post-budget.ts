// What one post may cost to read (bytes, seconds, memory), and the one-line refusals when it costs more.
import type { InputProblem } from "./types.ts";
import { type ParsedPost, type ParseOptions, parsePost } from "./parse-post.ts";

/**
 * The limits a post is read within. Markdown parsers are superlinear on some inputs (ten thousand nested `> `, fifty
 * thousand unclosed `[a](`), so a hostile or broken post would otherwise hang every command or exhaust memory.
 * A normal post parses at about 200 KB a second of CPU on a slow machine (a 1 MB post of this blog's prose, repeated,
 * took 5 s and under 260 MB of heap), so each limit leaves several times what a real post needs.
 */
export interface PostBudget {
  /** The largest post file, in bytes; a larger one is refused before it is read. */
  readonly maxBytes: number;
  /** Milliseconds a post may take to parse: a fixed part, plus so much per MiB of the post. */
  readonly baseMs: number;
  readonly msPerMiB: number;
  /** Megabytes of JavaScript heap the parser may use (its worker's old generation). */
  readonly memoryMb: number;
}

export const POST_BUDGET: PostBudget = { maxBytes: 1024 * 1024, baseMs: 5_000, msPerMiB: 15_000, memoryMb: 512 };

/** Milliseconds `bytes` of post may take to parse under `budget`. */
export function parseDeadlineMs(bytes: number, budget: PostBudget = POST_BUDGET): number {
  return Math.round(budget.baseMs + (budget.msPerMiB * bytes) / (1024 * 1024));
}

const FIX = "split it into smaller posts, or move it out of the content folder";

/** Rounded up, so that a post just over the cap never reads as the cap itself. */
const megabytes = (bytes: number) => `${(Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1)} MB`;

/** The refusal of a post file too large to read, or undefined. */
export function sizeProblem(file: string, bytes: number, budget: PostBudget = POST_BUDGET): InputProblem | undefined {
  if (bytes <= budget.maxBytes) return undefined;
  const message = `post is ${megabytes(bytes)}, over the ${megabytes(budget.maxBytes)} a post may be: ${FIX}`;
  return { file, message };
}

export function timeProblem(file: string, ms: number): InputProblem {
  return { file, message: `post was not parsed within ${(ms / 1000).toFixed(1)} s, the limit for its size: ${FIX}` };
}

export function memoryProblem(file: string, budget: PostBudget = POST_BUDGET): InputProblem {
  return { file, message: `post needed over ${budget.memoryMb} MB of memory to parse, the limit: ${FIX}` };
}

/** A parse that threw, as one line: a stack overflow is nesting too deep for the parser. */
export function thrownProblem(file: string, error: unknown): InputProblem {
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return { file, message: `post nests too deeply to parse (the parser ran out of stack): ${FIX}` };
  }
  const reason = error instanceof Error ? error.message : String(error);
  return { file, message: `post cannot be parsed: ${reason.split("\n", 1)[0]}` };
}

/**
 * parsePost with the size cap, and with anything it throws (a stack overflow, a parser's own bug) turned into one
 * problem naming the file. Time and memory are bounded by the worker that runs it (parse-pool.ts).
 */
export function guardedParse(
  file: string,
  bytes: Uint8Array,
  options: ParseOptions = {},
  budget: PostBudget = POST_BUDGET,
): ParsedPost {
  const tooBig = sizeProblem(file, bytes.length, budget);
  if (tooBig !== undefined) return { kind: "problems", problems: [tooBig] };
  try {
    return parsePost(file, bytes, options);
  } catch (error) {
    return { kind: "problems", problems: [thrownProblem(file, error)] };
  }
}
