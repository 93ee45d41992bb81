// The on-disk index cache: a BM25 part and an embeddings part (JSON manifest + Float32 file), each with its key.
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { EmbeddingInfo } from "./types.ts";
import type { EmbeddingMatrix } from "./dense.ts";
import { sha256Hex, writeFileAtomicAsync } from "../common/index.ts";

/** Bump when what is stored, or how it is read, changes: old caches then fail the key check and are rebuilt. */
export const INDEX_FORMAT = 1;

/**
 * Everything that decides one part's content. A part is used only when its stored key equals this one field for
 * field; any difference (an edited post, a parser change, another model, dtype or library version) rebuilds it.
 * The retriever picks the parts: bm25 needs the BM25 part, dense the embeddings part, hybrid both; so dense and
 * hybrid share one set of embeddings instead of embedding the blog twice.
 */
export type PartKey =
  | {
      readonly format: number;
      readonly part: "bm25";
      /** Corpus.hash: sha256 over the posts' names and bytes. */
      readonly corpus: string;
      /** sha256 over the sections as parsed: a change to the MDX parser changes them without changing the bytes. */
      readonly sections: string;
      /** wink's version and our BM25 config. */
      readonly bm25: string;
    }
  | {
      readonly format: number;
      readonly part: "embeddings";
      readonly corpus: string;
      readonly sections: string;
      /** Every field the embedder reports (model, dtype, library, dimensions, fingerprint...). */
      readonly embedding: EmbeddingInfo;
      /** Embeddings are stored in the machine's byte order. */
      readonly endianness: string;
    };

export const bm25Key = (corpus: string, sections: string, bm25: string): PartKey => ({
  format: INDEX_FORMAT,
  part: "bm25",
  corpus,
  sections,
  bm25,
});

export const embeddingsKey = (corpus: string, sections: string, embedding: EmbeddingInfo): PartKey => ({
  format: INDEX_FORMAT,
  part: "embeddings",
  corpus,
  sections,
  embedding: { ...embedding },
  endianness: os.endianness(),
});

/**
 * Where a part lives: one slot per content folder, part, model and dtype, so that rebuilding after an edit
 * replaces the old files instead of piling up new ones. The key stored inside decides whether it is reused.
 */
export function partPaths(cacheDir: string, contentDir: string, key: PartKey): { json: string; f32: string } {
  const model = key.part === "embeddings" ? [key.embedding.model, key.embedding.dtype] : [];
  const slot = JSON.stringify([path.resolve(contentDir), key.part, ...model]);
  const base = path.join(cacheDir, "index", `${key.part}-${sha256Hex(slot).slice(0, 16)}`);
  return { json: `${base}.json`, f32: `${base}.f32` };
}

export type CacheRead<T> =
  | { readonly kind: "hit"; readonly value: T }
  | { readonly kind: "miss" | "stale"; readonly reason: string };

interface Manifest {
  readonly key: PartKey;
  /** wink's exportJSON() string for the BM25 part. */
  readonly bm25?: string;
  readonly embeddings?: {
    readonly file: string;
    readonly rows: number;
    readonly dimensions: number;
    readonly sha256: string;
  };
}

async function readManifest(file: string, key: PartKey): Promise<CacheRead<Manifest>> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(file, "utf8")) as Manifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "miss", reason: "no cached index" };
    return { kind: "stale", reason: "cached index is unreadable" };
  }
  if (JSON.stringify(manifest.key) === JSON.stringify(key)) return { kind: "hit", value: manifest };
  const stored = manifest.key as Partial<Record<string, unknown>> | undefined;
  const want = key as unknown as Record<string, unknown>;
  const reason =
    stored?.format !== key.format
      ? "cached index has another format"
      : stored.corpus !== want.corpus
        ? "the posts changed since the index was cached"
        : stored.sections !== want.sections
          ? "the posts are split into sections differently since the index was cached"
          : "the search configuration or library versions changed since the index was cached";
  return { kind: "stale", reason };
}

/** Reads the BM25 part. Anything unexpected is a miss or stale, never an error. */
export async function readBm25(paths: { json: string }, key: PartKey): Promise<CacheRead<string>> {
  const read = await readManifest(paths.json, key);
  if (read.kind !== "hit") return read;
  return typeof read.value.bm25 === "string"
    ? { kind: "hit", value: read.value.bm25 }
    : { kind: "stale", reason: "cached BM25 index is damaged" };
}

/** Reads the embeddings part, checking the Float32 file against the size and sha256 its manifest vouches for. */
export async function readEmbeddings(
  paths: { json: string; f32: string },
  key: PartKey,
): Promise<CacheRead<EmbeddingMatrix>> {
  const read = await readManifest(paths.json, key);
  if (read.kind !== "hit") return read;
  const meta = read.value.embeddings;
  if (!meta) return { kind: "stale", reason: "cached embeddings manifest is damaged" };
  let bytes: Buffer;
  try {
    bytes = await readFile(paths.f32);
  } catch {
    return { kind: "stale", reason: "cached embeddings file is missing" };
  }
  if (bytes.length !== meta.rows * meta.dimensions * 4 || sha256Hex(bytes) !== meta.sha256) {
    return { kind: "stale", reason: "cached embeddings file does not match its manifest" };
  }
  // Copy into a fresh, aligned buffer: a Buffer from the pool may start at an offset not divisible by 4.
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  return { kind: "hit", value: { rows: meta.rows, dimensions: meta.dimensions, data } };
}

export async function writeBm25(paths: { json: string }, key: PartKey, bm25: string): Promise<void> {
  await writeFileAtomicAsync(paths.json, JSON.stringify({ key, bm25 } satisfies Manifest));
}

/** The Float32 file goes first, then the manifest that vouches for it (by sha256), so a reader never trusts a half-written pair. */
export async function writeEmbeddings(
  paths: { json: string; f32: string },
  key: PartKey,
  matrix: EmbeddingMatrix,
): Promise<void> {
  const bytes = new Uint8Array(matrix.data.buffer, matrix.data.byteOffset, matrix.data.byteLength);
  await writeFileAtomicAsync(paths.f32, bytes);
  const embeddings = {
    file: path.basename(paths.f32),
    rows: matrix.rows,
    dimensions: matrix.dimensions,
    sha256: sha256Hex(bytes),
  };
  await writeFileAtomicAsync(paths.json, JSON.stringify({ key, embeddings } satisfies Manifest));
}
