// Which files a model id names (a local .gguf or an hf: URI), and getting them into <cacheDir>/models.
import fs from "node:fs";
import path from "node:path";
import { hubEndpoint, hubToken, UserError } from "../common/index.ts";
import { importNodeLlamaCpp } from "./native.ts";
import { downloadHubFile, withoutQueries } from "./hub-download.ts";
import type { OnTick } from "../common/index.ts";

export const QUANTS = ["f16", "q8_0", "q4_k_m"] as const;
export type Quant = (typeof QUANTS)[number];

interface DefaultModel {
  /** Short name accepted by --model. */
  readonly name: string;
  readonly repo: string;
  /** Official file names per quant; several names when Qwen split the file (llama.cpp's gguf-split parts). */
  readonly files: Readonly<Record<Quant, readonly string[]>>;
  /**
   * The original (Transformers) repository the study loaded, whose generation_config.json sets the decoding: at the
   * commit the study pinned, or (undefined) the one the hub resolves on first download, since the study printed none.
   */
  readonly original: { readonly repo: string; readonly revision: string | undefined };
  /** Bytes of each file, where known (the hub's listing), in the order of `files`. */
  readonly bytes: Partial<Readonly<Record<Quant, readonly number[]>>>;
}

/**
 * The study's two models, from Qwen's official GGUF repositories. f16 is the closest to the study's bf16 weights.
 * Sizes in bytes (Hugging Face listing): 1.5B f16 3,560,416,288; 3B f16 3,980,517,664 + 2,820,129,120.
 */
export const DEFAULT_MODELS: readonly DefaultModel[] = [
  {
    name: "qwen2.5-1.5b",
    repo: "Qwen/Qwen2.5-1.5B-Instruct-GGUF",
    files: {
      f16: ["qwen2.5-1.5b-instruct-fp16.gguf"],
      q8_0: ["qwen2.5-1.5b-instruct-q8_0.gguf"],
      q4_k_m: ["qwen2.5-1.5b-instruct-q4_k_m.gguf"],
    },
    original: { repo: "Qwen/Qwen2.5-1.5B-Instruct", revision: "989aa7980e4cf806f80c7fef2b1adb7bc71aa306" },
    bytes: { f16: [3_560_416_288] },
  },
  {
    name: "qwen2.5-3b",
    repo: "Qwen/Qwen2.5-3B-Instruct-GGUF",
    files: {
      f16: ["qwen2.5-3b-instruct-fp16-00001-of-00002.gguf", "qwen2.5-3b-instruct-fp16-00002-of-00002.gguf"],
      q8_0: ["qwen2.5-3b-instruct-q8_0.gguf"],
      q4_k_m: ["qwen2.5-3b-instruct-q4_k_m.gguf"],
    },
    original: { repo: "Qwen/Qwen2.5-3B-Instruct", revision: "aa8e72537993ba99e69dfaafa59ed015b17504d1" },
    bytes: { f16: [3_980_517_664, 2_820_129_120] },
  },
];

export const DEFAULT_MODEL_NAMES = DEFAULT_MODELS.map((m) => m.name);

/** The hf: URI of a default model's (first) file: `defaultModelUri("qwen2.5-3b", "q8_0")`. */
export function defaultModelUri(name: string, quant: Quant = "f16"): string {
  const model = DEFAULT_MODELS.find((m) => m.name === name.toLowerCase());
  if (model === undefined)
    throw new UserError(
      `Unknown model name "${name}"; known: ${DEFAULT_MODEL_NAMES.join(", ")}, or pass a .gguf path or an hf: URI.`,
    );
  return `hf:${model.repo}/${model.files[quant][0]}`;
}

/** A --model value as an id loadModel understands: default names become hf: URIs, paths and URIs pass through. */
export function modelIdFor(model: string, quant: Quant = "f16"): string {
  return DEFAULT_MODEL_NAMES.includes(model.toLowerCase()) ? defaultModelUri(model, quant) : model;
}

/**
 * The local names node-llama-cpp gives an hf: URI's file and its split parts in the models folder, without the
 * network: `hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-fp16-00001-of-00002.gguf` ->
 * hf_Qwen_qwen2.5-3b-instruct-fp16-00001-of-00002.gguf and its -00002- part. Its rule: the repository's name is
 * left out when the file name starts with it (less "-GGUF"); undefined for URIs of another shape (a branch, a folder).
 */
export function hfLocalFileNames(
  uri: string,
): { readonly repo: string; readonly hubFiles: string[]; readonly localFiles: string[] } | undefined {
  const match = /^hf:([\w.-]+)\/([\w.-]+)\/([\w.-]+\.gguf)$/.exec(uri);
  if (match === null) return undefined;
  const [, user, repo, file] = match as unknown as [string, string, string, string];
  const stem = repo.toLowerCase().endsWith("-gguf") ? repo.slice(0, -"-gguf".length).toLowerCase() : undefined;
  const prefix = stem !== undefined && file.toLowerCase().startsWith(stem) ? `hf_${user}_` : `hf_${user}_${repo}_`;
  const hubFiles = splitParts(file);
  return { repo: `${user}/${repo}`, hubFiles, localFiles: hubFiles.map((f) => `${prefix}${f}`) };
}

/** The hub's size of a default model's file, when DEFAULT_MODELS knows it. */
export function knownFileBytes(hubFile: string): number | undefined {
  for (const model of DEFAULT_MODELS) {
    for (const quant of QUANTS) {
      const index = model.files[quant].indexOf(hubFile);
      if (index >= 0) return model.bytes[quant]?.[index];
    }
  }
  return undefined;
}

/**
 * Qwen2.5-Instruct's other sizes (the qwen2.5-scale suite): Qwen's GGUF repositories and the original repositories
 * whose generation_config.json sets their decoding, read as the study's two models' are, so that every size of the
 * scale decodes by the same rule (at the commit the hub names on first download).
 */
const QWEN25_ORIGINALS = ["0.5B", "7B", "14B"].map((size) => ({
  ggufRepo: `Qwen/Qwen2.5-${size}-Instruct-GGUF`,
  original: { repo: `Qwen/Qwen2.5-${size}-Instruct`, revision: undefined },
}));

/** The original repository (and pinned commit, if any) whose generation_config.json a hub model decodes by. */
export function originalRepoOf(id: string): DefaultModel["original"] | undefined {
  const lower = id.toLowerCase();
  return (
    defaultModelOf(id)?.original ??
    QWEN25_ORIGINALS.find((o) => lower.startsWith(`hf:${o.ggufRepo.toLowerCase()}/`))?.original
  );
}

/** The default model an id names (a short name or an hf: URI into its GGUF repository), or undefined. */
export function defaultModelOf(id: string): DefaultModel | undefined {
  const lower = id.toLowerCase();
  return DEFAULT_MODELS.find((m) => m.name === lower || lower.startsWith(`hf:${m.repo.toLowerCase()}/`));
}

export function modelsDir(cacheDir: string): string {
  return path.join(cacheDir, "models");
}

export interface ModelFiles {
  /** The file to load: the model itself, or the first part of a split model. */
  readonly path: string;
  readonly files: readonly { readonly path: string; readonly bytes: number }[];
}

const SPLIT_PART = /-(\d{5})-of-(\d{5})\.gguf$/;

/** All parts of a split GGUF given any one of them (`x-00001-of-00002.gguf` -> both), or the file itself. */
export function splitParts(file: string): string[] {
  const match = SPLIT_PART.exec(file);
  if (match === null) return [file];
  const total = Number(match[2]);
  const stem = file.slice(0, match.index);
  return Array.from({ length: total }, (_, i) => `${stem}-${String(i + 1).padStart(5, "0")}-of-${match[2]}.gguf`);
}

function describe(parts: readonly string[]): ModelFiles {
  return { path: parts[0]!, files: parts.map((p) => ({ path: p, bytes: fs.statSync(p).size })) };
}

/** True for a model id that names a file on this machine, not an hf: URI or a URL to download. */
export function isLocalModelId(id: string): boolean {
  return !id.startsWith("hf:") && !/^https?:\/\//.test(id);
}

/**
 * Local files of a model id, downloading an hf: URI into <cacheDir>/models first when its files are missing.
 * Files already there are used without touching the network; an interrupted download resumes.
 */
export async function resolveModelFiles(
  id: string,
  options: { cacheDir: string; onProgress?: (message: string) => void; onTick?: OnTick },
): Promise<ModelFiles> {
  if (isLocalModelId(id)) return localModelFiles(id);
  const dir = modelsDir(options.cacheDir);
  const { resolveModelFile } = await importNodeLlamaCpp();
  const names = hfLocalFileNames(id)?.localFiles.join(", ") ?? "hf_<user>_<file>.gguf, as node-llama-cpp names them";
  const offlineHint = `Download its file(s) into ${dir} (named ${names}), or give a local .gguf path instead.`;
  let first: string;
  try {
    // Files already there (every part of a split model) are used without touching the network.
    first = await resolveModelFile(id, { directory: dir, download: false, cli: false });
  } catch {
    // subtle: offline, node-llama-cpp's downloader retries for minutes; one quick request tells us first.
    const probe = id.startsWith("hf:") ? `${hubEndpoint()}/` : id;
    const reachable = await fetch(probe, { method: "HEAD", signal: AbortSignal.timeout(15_000) }).then(
      () => true,
      () => false,
    );
    if (!reachable)
      throw new UserError(
        `Model ${id} is not in ${dir} and ${new URL(probe).host} cannot be reached (offline?). ${offlineHint}`,
      );
    options.onProgress?.(`downloading ${withoutQueries(id)} into ${dir} (an interrupted download resumes)`);
    const hub = hfLocalFileNames(id);
    try {
      first = hub !== undefined ? await downloadHubParts(hub, dir, options) : await downloadOther(id, dir, options);
    } catch (error) {
      if (error instanceof UserError) throw new UserError(`Could not download model ${id}: ${error.message}`);
      throw new UserError(
        `Could not download model ${id}: ${withoutQueries((error as Error).message)}. ${offlineHint}`,
      );
    }
  }
  return describe(splitParts(first));
}

function localModelFiles(file: string): ModelFiles {
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved)) {
    throw new UserError(
      `No model file at ${resolved}. Pass a .gguf path, an hf: URI, or one of: ${DEFAULT_MODEL_NAMES.join(", ")}.`,
    );
  }
  const parts = splitParts(resolved);
  const missing = parts.filter((p) => !fs.existsSync(p));
  if (missing.length > 0) throw new UserError(`Split model ${resolved} is missing part(s): ${missing.join(", ")}`);
  return describe(parts);
}

/**
 * Each part of an hf: URI's file missing from `dir`, downloaded by the hub's rules (hub-download.ts) at the hub's
 * main revision, as node-llama-cpp resolves it; returns the first part's path.
 */
async function downloadHubParts(
  hub: NonNullable<ReturnType<typeof hfLocalFileNames>>,
  dir: string,
  options: { onProgress?: (message: string) => void; onTick?: OnTick },
): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  for (const [i, file] of hub.hubFiles.entries()) {
    const dest = path.join(dir, hub.localFiles[i]!);
    if (fs.existsSync(dest)) continue;
    const target = { endpoint: hubEndpoint(), repo: hub.repo, revision: "main", file, token: hubToken() };
    await downloadHubFile(target, dest, {
      onLine: options.onProgress,
      onBytes: downloadProgress(options.onProgress, options.onTick, file),
    });
  }
  return path.join(dir, hub.localFiles[0]!);
}

/** Any other hf: URI or URL, by node-llama-cpp's downloader, which keeps a failed download's partial file. */
async function downloadOther(
  id: string,
  dir: string,
  options: { onProgress?: (message: string) => void; onTick?: OnTick },
): Promise<string> {
  const { resolveModelFile } = await importNodeLlamaCpp();
  // One throttle for the whole download: the downloader reports many times a second, and 100% over and over.
  const progress = downloadProgress(options.onProgress, options.onTick, withoutQueries(id));
  // cli: false keeps stdout clean; the parts of a split model download together.
  // The hub and the token are given, not left to the library to find: every request blogqa makes to the hub
  // follows one rule (common/hub.ts).
  return resolveModelFile(id, {
    directory: dir,
    cli: false,
    deleteTempFileOnCancel: false,
    endpoints: { huggingFace: `${hubEndpoint()}/` },
    tokens: { huggingFace: hubToken() },
    onProgress: (p) => progress?.(p.downloadedSize, p.totalSize),
  });
}

/**
 * Byte counts as a line on stderr at most every 2 seconds and one final line at 100% (the downloader reports the
 * end many times over), or as ticks for a progress display.
 */
export function downloadProgress(
  report: ((message: string) => void) | undefined,
  onTick: OnTick | undefined,
  name: string,
  now: () => number = Date.now,
): ((downloadedSize: number, totalSize: number) => void) | undefined {
  if (onTick !== undefined) {
    return (downloadedSize, totalSize) =>
      onTick({
        task: "downloading",
        done: Math.floor(downloadedSize / 1e6),
        total: Math.ceil(totalSize / 1e6),
        unit: "MB",
        detail: name,
      });
  }
  if (report === undefined) return undefined;
  let last = Number.NEGATIVE_INFINITY;
  let finished = false;
  return (downloadedSize, totalSize) => {
    const done = totalSize > 0 && downloadedSize >= totalSize;
    if (finished || (now() - last < 2000 && !done)) return;
    last = now();
    finished = done;
    const gb = (n: number) => (n / 1e9).toFixed(2);
    const pct = totalSize > 0 ? ((100 * downloadedSize) / totalSize).toFixed(1) : "?";
    report(`downloading ${name}: ${gb(downloadedSize)} / ${gb(totalSize)} GB (${pct}%)`);
  };
}
