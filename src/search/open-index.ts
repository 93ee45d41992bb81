// Opens the search index for a corpus: from the disk cache when its key matches, else built and cached.
import { createHash } from "node:crypto";
import type { Corpus, Section } from "../corpus/index.ts";
import { UserError } from "../common/index.ts";
import type { Embedder, Hit, SearchIndex, SearchOptions } from "./types.ts";
import { BM25_CONFIG, WINK_VERSION, buildBm25, importBm25, type Bm25 } from "./bm25.ts";
import { rankByCosine, toMatrix, type EmbeddingMatrix } from "./dense.ts";
import { reciprocalRankFusion } from "./fusion.ts";
import { snippet } from "./snippet.ts";
import {
  bm25Key,
  embeddingsKey,
  partPaths,
  readBm25,
  readEmbeddings,
  writeBm25,
  writeEmbeddings,
} from "./index-cache.ts";
import { loadEmbedder } from "./embedder.ts";
import type { OnTick } from "../common/index.ts";

/**
 * What the dense half embeds for a section: its heading, then its text (the model truncates past 256 word pieces).
 * Changing this changes every embedding: bump INDEX_FORMAT with it so cached embeddings are rebuilt.
 */
export function embeddingText(section: Section): string {
  return `${section.heading}\n\n${section.text}`;
}

/**
 * With the bm25 retriever no embedding model is loaded at all. Otherwise `options.embedder` is used when given
 * (tests pass a fake), else the model named by `options.embeddingModel` is loaded; it is needed even on a cache
 * hit, to embed queries. `fromCache` is true when every part the retriever needs came from the disk cache.
 */
export async function openIndex(
  corpus: Corpus,
  options: SearchOptions & { readonly embedder?: Embedder },
): Promise<SearchIndex> {
  const progress = options.onProgress ?? (() => {});
  const wantsBm25 = options.retriever !== "dense";
  const embedder =
    options.retriever === "bm25"
      ? undefined
      : (options.embedder ??
        (await loadEmbedder(options.embeddingModel, {
          dtype: options.dtype,
          cacheDir: options.cacheDir,
          onProgress: progress,
          ...(options.onTick ? { onTick: options.onTick } : {}),
        })));
  const sections = sectionsHash(corpus.sections);
  const fromCache: boolean[] = [];
  // A cache that cannot be written costs time on the next run, not correctness.
  const cannotWrite = (error: unknown) =>
    progress(`could not write the index cache under ${options.cacheDir}: ${(error as Error).message}`);

  let bm25: Bm25 | undefined;
  if (wantsBm25) {
    const key = bm25Key(corpus.hash, sections, `${WINK_VERSION} ${JSON.stringify(BM25_CONFIG)}`);
    const paths = partPaths(options.cacheDir, corpus.dir, key);
    const cached = await readBm25(paths, key);
    fromCache.push(cached.kind === "hit");
    if (cached.kind === "hit") bm25 = importBm25(cached.value, corpus.sections.length);
    else {
      if (cached.kind === "stale") progress(`${cached.reason}: rebuilding the BM25 index`);
      bm25 = buildBm25(corpus.sections);
      await writeBm25(paths, key, bm25.exportJSON()).catch(cannotWrite);
    }
  }

  let matrix: EmbeddingMatrix | undefined;
  if (embedder) {
    const key = embeddingsKey(corpus.hash, sections, embedder.info);
    const paths = partPaths(options.cacheDir, corpus.dir, key);
    const cached = await readEmbeddings(paths, key);
    fromCache.push(cached.kind === "hit");
    if (cached.kind === "hit") matrix = cached.value;
    else {
      if (cached.kind === "stale") progress(`${cached.reason}: embedding the sections again`);
      matrix = await embedSections(embedder, corpus.sections, progress, options.onTick);
      await writeEmbeddings(paths, key, matrix).catch(cannotWrite);
    }
  }
  return makeIndex(corpus, options.retriever, fromCache.every(Boolean), bm25, embedder, matrix);
}

/** sha256 over the sections themselves, so an index is never reused for sections it was not built from. */
export function sectionsHash(sections: readonly Section[]): string {
  const hash = createHash("sha256");
  for (const s of sections) hash.update(JSON.stringify([s.post, s.heading, s.level, s.text])).update("\n");
  return hash.digest("hex");
}

async function embedSections(
  embedder: Embedder,
  sections: readonly Section[],
  progress: (m: string) => void,
  onTick?: OnTick,
): Promise<EmbeddingMatrix> {
  // All sections in one call: the embedder sorts by length before batching, so batches pad far less than
  // corpus-order slices would (measured: 74k word pieces instead of 112k for this blog with MiniLM's shape).
  let reported = 0;
  const vectors = await embedder.embed(sections.map(embeddingText), (done, total) => {
    if (onTick)
      return onTick({ task: "embedding the sections", done, total, unit: "sections", detail: embedder.info.model });
    if (done === total || done - reported >= 64) {
      reported = done;
      progress(`embedded ${done}/${total} sections with ${embedder.info.model}`);
    }
  });
  if (vectors.length !== sections.length)
    throw new Error(`embedder returned ${vectors.length} vectors for ${sections.length} sections`);
  return toMatrix(vectors);
}

function makeIndex(
  corpus: Corpus,
  retriever: SearchOptions["retriever"],
  fromCache: boolean,
  bm25: Bm25 | undefined,
  embedder: Embedder | undefined,
  matrix: EmbeddingMatrix | undefined,
): SearchIndex {
  // post -> heading -> section: read_section looks sections up here, never on disk.
  const byPost = new Map<string, Map<string, Section>>();
  for (const section of corpus.sections) {
    const headings = byPost.get(section.post) ?? new Map<string, Section>();
    headings.set(section.heading, section);
    byPost.set(section.post, headings);
  }
  const denseRanking = async (query: string) => {
    const [vector] = await embedder!.embed([query]);
    return rankByCosine(matrix!, vector!);
  };
  const ranking = async (query: string): Promise<number[]> => {
    switch (retriever) {
      case "bm25":
        return bm25!.rank(query);
      case "dense":
        return denseRanking(query);
      case "hybrid":
        return reciprocalRankFusion([bm25!.rank(query), await denseRanking(query)]).map((r) => r.item);
    }
  };
  return {
    corpus,
    retriever,
    embedding: embedder?.info,
    fromCache,
    async search(query: string, k = 3): Promise<Hit[]> {
      if (!Number.isInteger(k) || k < 1) throw new UserError(`k must be a whole number of hits, at least 1 (got ${k})`);
      return (await ranking(query)).slice(0, k).map((i) => {
        const section = corpus.sections[i]!;
        return { post: section.post, heading: section.heading, snippet: snippet(section.text) };
      });
    },
    section: (post, heading) => byPost.get(post)?.get(heading),
    posts: () => corpus.posts.map((p) => p.slug),
    headings: (post) => {
      const headings = byPost.get(post);
      return headings && [...headings.keys()];
    },
  };
}
