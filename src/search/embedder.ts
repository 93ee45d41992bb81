// Loads a sentence embedder through transformers.js (a local folder, or the hub via a disk cache) and embeds texts.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import type * as Transformers from "@huggingface/transformers";
import type { FeatureExtractionPipeline, ProgressInfo } from "@huggingface/transformers";
import { filesFingerprint, hubEndpoint, UserError } from "../common/index.ts";
import {
  DEFAULT_BATCH_SIZE,
  lengthSortedBatches,
  MAX_WORD_PIECES,
  padBatch,
  truncateTokenIds,
} from "./embed-batches.ts";
import {
  incompleteModelError,
  modelFiles,
  modelSource,
  onnxFileFor,
  probeHub,
  unavailableModelError,
  type ModelSource,
} from "./embedder-source.ts";
import { downloadProgressReporter } from "./download-progress.ts";
import type { Embedder, EmbeddingDtype, EmbeddingInfo } from "./types.ts";
import type { OnTick } from "../common/index.ts";

export interface LoadEmbedderOptions {
  readonly dtype: EmbeddingDtype;
  /** Hub models download into `<cacheDir>/embedders/<owner>/<name>/`. */
  readonly cacheDir: string;
  /** Download progress for a person (stderr); only called while downloading. */
  readonly onProgress?: (message: string) => void;
  /** Counts the megabytes of a download, when given (instead of lines per file). */
  readonly onTick?: OnTick;
  /** Hub mirror; default hubEndpoint() ($HF_ENDPOINT, else https://huggingface.co). */
  readonly remoteHost?: string;
  /** Texts per forward pass (default 32, as sentence-transformers). */
  readonly batchSize?: number;
  /** onnxruntime's intra-op threads; default: its own choice (one per physical core). */
  readonly threads?: number;
}

/** "@huggingface/transformers@4.3.2", read from the installed package, for cache keys. */
export const EMBEDDING_LIBRARY = `@huggingface/transformers@${installedVersion()}`;

// transformers.js keeps its settings in one global `env`; loads run one at a time so each sees its own.
let loading: Promise<unknown> = Promise.resolve();

/**
 * Loads `model` (a hub id such as Xenova/all-MiniLM-L6-v2, or an existing folder) as sentence-transformers runs
 * all-MiniLM-L6-v2: mean pooling over the attention mask, L2 normalization, inputs cut at 256 word pieces.
 * Cached or local models load with remote access disabled; a hub model missing from the cache is downloaded,
 * unless the hub cannot be reached: then a UserError at once, naming --retriever bm25 and --embedding-model PATH.
 */
let library: Promise<typeof Transformers> | undefined;
/** transformers.js, imported on first use: it takes half a second, which every command that never embeds would pay. */
const transformers = () => (library ??= import("@huggingface/transformers"));

export function loadEmbedder(model: string, options: LoadEmbedderOptions): Promise<Embedder> {
  const next = loading.then(() => load(model, options));
  loading = next.catch(() => undefined);
  return next;
}

async function load(model: string, options: LoadEmbedderOptions): Promise<Embedder> {
  const source = modelSource(model);
  const hubCache = path.join(options.cacheDir, "embedders");
  const { env, LogLevel } = await transformers();
  env.logLevel = LogLevel.ERROR;
  env.cacheDir = hubCache; // also where transformers.js looks before loading (it reads config.json without our cache_dir)
  env.localModelPath = hubCache; // a hub id is looked for "locally" in the cache too, never in node_modules
  env.remoteHost = withSlash(options.remoteHost ?? hubEndpoint());

  const folder = source.kind === "folder" ? source.folder : path.join(hubCache, source.id);
  // Local folders and cached hub models never touch the network.
  let extractor = await tryLoad(source, options, hubCache, false, undefined);
  if (extractor === undefined && source.kind === "hub") {
    const probe = await probeHub(`${env.remoteHost}${source.id}/resolve/main/config.json`);
    if (!probe.ok) throw unavailableModelError(source.id, folder, probe);
    options.onProgress?.(`downloading embedding model ${source.id} into ${folder}`);
    extractor = await tryLoad(
      source,
      options,
      hubCache,
      true,
      downloadProgressReporter(options.onProgress, options.onTick),
    );
  }
  const cacheFolder = source.kind === "hub" ? folder : undefined;
  if (extractor === undefined)
    throw incompleteModelError(model, missingFile(folder, options.dtype) ?? "a model file", cacheFolder);
  // A partial cache can load without a tokenizer (transformers.js then skips it): refuse rather than fail later.
  if (extractor.tokenizer === undefined) throw incompleteModelError(model, "tokenizer_config.json", cacheFolder);

  const info: EmbeddingInfo = {
    model: source.kind === "folder" ? source.folder : source.id,
    dtype: options.dtype,
    library: EMBEDDING_LIBRARY,
    dimensions: hiddenSize(extractor),
    fingerprint: filesFingerprint(folder, modelFiles(options.dtype)),
  };
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  return { info, embed: (texts, onProgress) => embedTexts(extractor, texts, batchSize, info.dimensions, onProgress) };
}

/**
 * One pipeline() attempt; undefined when a file is not found where it was allowed to look.
 * Subtle: dtype is always explicit: without it some transformers.js versions pick the quantized file.
 */
async function tryLoad(
  source: ModelSource,
  { dtype, threads }: LoadEmbedderOptions,
  hubCache: string,
  remote: boolean,
  progress: ((info: ProgressInfo) => void) | undefined,
): Promise<FeatureExtractionPipeline | undefined> {
  const { env, pipeline, ModelFileNotFoundError } = await transformers();
  env.allowRemoteModels = remote;
  // A folder goes in as its absolute path: transformers.js then reads <folder>/<file> (an absolute path is no hub id).
  const id = source.kind === "folder" ? source.folder : source.id;
  try {
    return await pipeline("feature-extraction", id, {
      dtype,
      device: "cpu",
      cache_dir: hubCache,
      local_files_only: !remote,
      ...(threads === undefined ? {} : { session_options: { intraOpNumThreads: threads } }),
      ...(progress ? { progress_callback: progress } : {}),
    });
  } catch (error) {
    if (error instanceof ModelFileNotFoundError) return undefined;
    if (remote && error instanceof TypeError && error.message === "fetch failed") {
      // The hub answered the probe, then went away mid-download.
      const cause = String((error as Error & { cause?: unknown }).cause ?? "network error");
      throw new UserError(
        `downloading embedding model "${id}" failed (${cause}); run again, or use --retriever bm25 or --embedding-model PATH`,
      );
    }
    // Anything else is a file transformers.js or onnxruntime could not use (a corrupt or foreign model).
    throw new UserError(`cannot load embedding model "${id}" (${onnxFileFor(dtype)}): ${(error as Error).message}`);
  } finally {
    env.allowRemoteModels = false;
  }
}

/** Embeds in length-sorted batches; each vector is mean-pooled over real tokens and L2-normalized. */
async function embedTexts(
  extractor: FeatureExtractionPipeline,
  texts: readonly string[],
  batchSize: number,
  dimensions: number,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<Float32Array[]> {
  const { Tensor, mean_pooling } = await transformers();
  const tokenizer = extractor.tokenizer;
  const specialIds = new Set(tokenizer.all_special_ids);
  const tokenized = texts.map((text) => {
    const ids = tokenizer.encode(text);
    return truncateTokenIds(ids, MAX_WORD_PIECES, specialIds.has(ids[ids.length - 1]!));
  });
  const vectors: Float32Array[] = new Array(texts.length);
  let done = 0;
  for (const batch of lengthSortedBatches(
    tokenized.map((ids) => ids.length),
    batchSize,
  )) {
    const padded = padBatch(
      batch.map((i) => tokenized[i]!),
      tokenizer.pad_token_id ?? 0,
    );
    const dims = [padded.rows, padded.columns];
    const attentionMask = new Tensor("int64", padded.attentionMask, dims);
    const outputs = await extractor.model({
      input_ids: new Tensor("int64", padded.inputIds, dims),
      attention_mask: attentionMask,
      token_type_ids: new Tensor("int64", padded.tokenTypeIds, dims),
    });
    // The pipeline's own pooling path: the same output names it tries, mean_pooling, then normalize.
    const hidden = (outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings) as Transformers.Tensor;
    const pooled = mean_pooling(hidden, attentionMask).normalize(2, -1);
    const data = pooled.data as Float32Array;
    batch.forEach((textIndex, row) => {
      vectors[textIndex] = data.slice(row * dimensions, (row + 1) * dimensions);
    });
    done += batch.length;
    onProgress?.(done, texts.length);
  }
  return vectors;
}

function hiddenSize(extractor: FeatureExtractionPipeline): number {
  const size = (extractor.model.config as { hidden_size?: unknown }).hidden_size;
  if (typeof size !== "number") throw new UserError("the embedding model's config.json has no hidden_size");
  return size;
}

function missingFile(folder: string, dtype: EmbeddingDtype): string | undefined {
  return modelFiles(dtype).find((file) => !fs.existsSync(path.join(folder, file)));
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

function installedVersion(): string {
  // The package's exports hide package.json; walk up from its entry point instead.
  let dir = path.dirname(createRequire(import.meta.url).resolve("@huggingface/transformers"));
  while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
}
