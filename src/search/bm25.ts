// BM25F over section headings and bodies with wink-bm25-text-search: build, rank, export and import.
import { createRequire } from "node:module";
import bm25 from "wink-bm25-text-search";
import type nlpUtils from "wink-nlp-utils";
import { UserError } from "../common/index.ts";
import type { Section } from "../corpus/index.ts";

/**
 * A heading word counts twice a body word: headings name what a section is about, and the study's questions
 * are worded like the section that answers them. k1 and b are BM25's usual 1.2 and 0.75.
 */
export const BM25_CONFIG = { fldWeights: { heading: 2, body: 1 }, bm25Params: { k1: 1.2, b: 0.75, k: 1 } } as const;

let prepTasks: ((input: never) => unknown)[] | undefined;
/**
 * The usual prep: lowercase, split into words, drop English stop words, Porter-stem. wink-nlp-utils is required on
 * first use: loading its word lists takes a quarter of a second that every command not searching would pay.
 */
function prep(): ((input: never) => unknown)[] {
  if (prepTasks === undefined) {
    const nlp = createRequire(import.meta.url)("wink-nlp-utils") as typeof nlpUtils;
    prepTasks = [nlp.string.lowerCase, nlp.string.tokenize0, nlp.tokens.removeWords, nlp.tokens.stem];
  }
  return prepTasks;
}

/** The terms BM25 indexes and matches for a text (lowercased, stop words dropped, stemmed), in order, repeats kept. */
export function bm25Terms(text: string): string[] {
  return prep().reduce<unknown>((value, task) => (task as (x: unknown) => unknown)(value), text) as string[];
}

/** Goes into cache keys: a new wink version may score differently. */
export const WINK_VERSION: string = `wink-bm25-text-search@${(createRequire(import.meta.url)("wink-bm25-text-search/package.json") as { version: string }).version}`;

/** A consolidated BM25 index whose document ids are section positions in corpus order. */
export interface Bm25 {
  /** Section positions of every section sharing a word with the query, best first (ties: earlier section first). */
  rank(query: string): number[];
  /** wink's own JSON, for the index cache. */
  exportJSON(): string;
}

function wrap(engine: ReturnType<typeof bm25>, size: number): Bm25 {
  return {
    // wink returns ids as strings; asking for `size` results ranks every matching section.
    rank: (query) => engine.search(query, size).map(([id]) => Number(id)),
    exportJSON: () => engine.exportJSON(),
  };
}

/** wink cannot consolidate fewer than 3 documents. */
export function buildBm25(sections: readonly Section[]): Bm25 {
  if (sections.length < 3)
    throw new UserError(`BM25 needs at least 3 sections to index; the corpus has ${sections.length}`);
  const engine = bm25();
  // Prep tasks must come after defineConfig (wink checks), and cannot be added to a config given later.
  engine.defineConfig(structuredClone(BM25_CONFIG) as Parameters<typeof engine.defineConfig>[0]);
  engine.definePrepTasks(prep());
  sections.forEach((section, i) => {
    engine.addDoc({ heading: section.heading, body: section.text }, String(i));
  });
  engine.consolidate();
  return wrap(engine, sections.length);
}

/** Restores an exported index. Prep tasks are functions, so wink does not export them: define them again. */
export function importBm25(json: string, size: number): Bm25 {
  const engine = bm25();
  engine.importJSON(json);
  engine.definePrepTasks(prep());
  return wrap(engine, size);
}
