// Where an embedding model comes from (a local folder or the hub, through a cache), and the errors a person sees.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../common/index.ts";
import type { EmbeddingDtype } from "./types.ts";

/** A local model folder (absolute path) or a hub repository id such as Xenova/all-MiniLM-L6-v2. */
export type ModelSource =
  | { readonly kind: "folder"; readonly folder: string }
  | { readonly kind: "hub"; readonly id: string };

// The hub's repository ids: an optional owner, a name (transformers.js's REPO_ID_REGEX, without `..` or `--`).
const HUB_ID = /^(?:[\w.-]+\/)?[\w.-]{1,96}$/;

/** An existing folder is a local model; anything else must look like a hub id. */
export function modelSource(model: string): ModelSource {
  const stat = fs.statSync(model, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return { kind: "folder", folder: path.resolve(model) };
  if (stat)
    throw new UserError(
      `--embedding-model ${model} is a file; give a model folder (with config.json and onnx/model.onnx) or a hub id`,
    );
  const looksLikePath =
    model.startsWith(".") || path.isAbsolute(model) || model.includes("\\") || model.split("/").length > 2;
  if (looksLikePath || !HUB_ID.test(model) || model.includes("..") || model.includes("--")) {
    throw new UserError(
      `--embedding-model ${model}: no such folder, and not a Hugging Face hub id (like Xenova/all-MiniLM-L6-v2)`,
    );
  }
  return { kind: "hub", id: model };
}

/** The ONNX file transformers.js loads for a dtype (its DEFAULT_DTYPE_SUFFIX_MAPPING). */
export function onnxFileFor(dtype: EmbeddingDtype): string {
  const suffix: Record<EmbeddingDtype, string> = { fp32: "", fp16: "_fp16", q8: "_quantized" };
  return `onnx/model${suffix[dtype]}.onnx`;
}

/** The files a feature-extraction model folder needs, relative to it. */
export function modelFiles(dtype: EmbeddingDtype): string[] {
  return ["config.json", "tokenizer.json", "tokenizer_config.json", onnxFileFor(dtype)];
}

/** How long the reachability check waits: offline must fail at once, not after the fetch's own timeouts. */
export const HUB_PROBE_TIMEOUT_MS = 5000;

export type ProbeResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly status?: number; readonly reason: string };

/** One HEAD request for the model's config.json, answering whether a download could work and, if not, why. */
export async function probeHub(url: string, timeoutMs = HUB_PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  try {
    const response = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(timeoutMs) });
    if (response.ok) return { ok: true };
    return { ok: false, status: response.status, reason: `${url} answered HTTP ${response.status}` };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    if (e.name === "TimeoutError" || e.name === "AbortError")
      return { ok: false, reason: `no answer from ${new URL(url).host} within ${timeoutMs / 1000} s` };
    return { ok: false, reason: e.cause?.code ?? e.cause?.message ?? e.message };
  }
}

// The two ways on without the hub, in every such message (after "use" / "Use").
const ESCAPE_HATCHES =
  "--retriever bm25 (no embedding model needed), or --embedding-model PATH with a local model folder " +
  "(config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx; `npx blogqa make-tiny-embedder --out DIR` " +
  "writes a random-weight one offline, as smoke uses, which runs the pipeline but searches no better than chance)";

/** The model is neither cached nor local, and the hub cannot be reached (or does not have it). */
export function unavailableModelError(
  id: string,
  cacheFolder: string,
  probe: Extract<ProbeResult, { ok: false }>,
): UserError {
  const why =
    probe.status === 401 || probe.status === 404
      ? `the Hugging Face hub has no model "${id}" (${probe.reason})`
      : `it is not in the cache (${cacheFolder}) and the Hugging Face hub cannot be reached (${probe.reason})`;
  return new UserError(`cannot load embedding model "${id}": ${why}. Use ${ESCAPE_HATCHES}.`);
}

/** A model folder (local, or the hub cache) that lacks a file transformers.js needs. */
export function incompleteModelError(model: string, missing: string, cacheFolder?: string): UserError {
  const fix = cacheFolder ? `Delete ${cacheFolder} to download it again, or use` : "Use";
  return new UserError(`embedding model "${model}" is incomplete: ${missing} is missing. ${fix} ${ESCAPE_HATCHES}.`);
}
