// Sizes a model's context: fitted to the memory left beside its weights (node-llama-cpp's own estimate), or as given.
import type { Llama, LlamaModel } from "node-llama-cpp";
import { UserError } from "../common/index.ts";

/** --context-size: "auto" fits the context to free memory; a number is used as given. */
export type ContextSizeSetting = "auto" | number;

/**
 * The fewest tokens a fitted context may hold unless the run asks for more: the study's longest call is about 1,300
 * tokens (prompt and reply), and 4,096 leaves three times that. node-llama-cpp's own floor when it shrinks a context.
 */
export const CONTEXT_FLOOR = 4096;

/** How a model's context size was chosen, as the manifest records it beside the size. */
export interface ContextFit {
  /** The setting: "auto", or the number given. */
  readonly setting: ContextSizeSetting;
  /** With auto: the least it would take (what the run's calls need), and the most (the model's trained length). */
  readonly floor: number;
  readonly cap: number;
  /** Free memory where the context goes when it was sized, in bytes (VRAM with layers on the GPU, else RAM). */
  readonly freeBytes: number;
  /** One sentence: why this size. */
  readonly reason: string;
}

/** What sizing needs to know besides the model: the setting, the run's floor and how contexts share memory. */
export interface ContextRequest {
  readonly setting: ContextSizeSetting;
  /** Tokens the run's calls need at least (CONTEXT_FLOOR, or more for long replies or a folder's larger calls). */
  readonly floor: number;
  /** Sequences on each context. */
  readonly sequences: number;
  /** Separate contexts opened side by side: each is fitted to this share of the free memory. */
  readonly contexts: number;
  /** The model as named in messages. */
  readonly label: string;
}

/** Where a context's memory would come from, and how much is free there now. */
interface MemoryPlace {
  readonly where: string;
  readonly free: number;
}

/** MiB or GiB, as a message says a size. */
export function formatBytes(bytes: number): string {
  const mib = bytes / 2 ** 20;
  return mib >= 1024 ? `${(mib / 1024).toFixed(1)} GiB` : `${Math.round(mib)} MiB`;
}

const grouped = (n: number) => n.toLocaleString("en-US");

/** The cap of a fitted context: the model's trained length, or 32,768 where the GGUF states none. */
export function trainedCap(trainContextSize: number): number {
  return trainContextSize > 0 ? trainContextSize : 32768;
}

/**
 * Why a fitted size was chosen, in one sentence. `size` at the cap: the trained length fits; below it: memory set it.
 */
export function fitReason(size: number, fit: Pick<ContextFit, "floor" | "cap">, place: MemoryPlace): string {
  if (size >= fit.cap)
    return `auto: the model's trained length, which fits the ${formatBytes(place.free)} of ${place.where} free`;
  return (
    `auto: the most that fits the ${formatBytes(place.free)} of ${place.where} free beside the weights ` +
    `(trained length ${grouped(fit.cap)}; the run's calls need ${grouped(fit.floor)})`
  );
}

/** The sizes `--quant` offers, smallest weights last, as a suggestion names them. */
const SMALLER_QUANTS = ["q8_0", "q4_k_m"] as const;

/**
 * The one line said when no context the run needs fits: the largest size that does (if any), and a smaller
 * --quant where the weights are f16 or f32.
 */
export function noFitMessage(o: {
  readonly label: string;
  readonly setting: ContextSizeSetting;
  readonly needed: number;
  readonly largest: number | undefined;
  readonly place: MemoryPlace;
  readonly fullPrecision: boolean;
}): string {
  const asked =
    o.setting === "auto"
      ? `no context of the ${grouped(o.needed)} tokens its runs need fits`
      : `--context-size ${o.needed} does not fit`;
  const largest =
    o.largest === undefined
      ? "no context fits at all"
      : `the largest that fits is --context-size ${o.largest} (a prompt longer than that fails and is counted apart)`;
  const quant = o.fullPrecision ? `, or --quant ${SMALLER_QUANTS.join(" / --quant ")} takes smaller weights` : "";
  const cpu = o.place.where === "VRAM" ? "; --no-gpu runs it from RAM" : "";
  return (
    `model ${o.label}: ${asked} the ${formatBytes(o.place.free)} of ${o.place.where} free beside its weights; ` +
    `${largest}${quant}${cpu}. Nothing logged is lost: run again with one of these to go on`
  );
}

/**
 * Sizes one context (of `sequences` sequences; `contexts` of them side by side) for a loaded model: a number as
 * given (node-llama-cpp checks it when the context is made, and noFitError words a refusal); auto as the largest from
 * the floor to the trained length that node-llama-cpp estimates fits. When not even the floor fits: noFitError.
 */
export async function fitContextSize(
  llama: Llama,
  model: LlamaModel,
  request: ContextRequest,
): Promise<{ readonly size: number; readonly fit: ContextFit }> {
  const cap = trainedCap(model.trainContextSize);
  const floor = request.floor;
  if (request.setting !== "auto") {
    const size = request.setting;
    const reason = `--context-size ${size}, as given`;
    return {
      size,
      fit: { setting: size, floor, cap, freeBytes: (await memoryPlace(llama, model, request)).free, reason },
    };
  }
  const { place, resolve } = await fitter(llama, model, request);
  let size: number;
  try {
    size = await resolve({ min: floor, max: Math.max(cap, floor) });
  } catch {
    throw await noFitError(llama, model, request, floor);
  }
  return {
    size,
    fit: { setting: "auto", floor, cap, freeBytes: place.free, reason: fitReason(size, { floor, cap }, place) },
  };
}

/** Where the request's contexts would go and how much each may take: VRAM with layers on the GPU, else RAM. */
async function memoryPlace(llama: Llama, model: LlamaModel, request: ContextRequest): Promise<MemoryPlace> {
  return (await fitter(llama, model, request)).place;
}

/**
 * The UserError for a context of `needed` tokens that does not fit: noFitMessage, with the largest size node-llama-cpp
 * estimates fits (up to the trained length).
 */
export async function noFitError(
  llama: Llama,
  model: LlamaModel,
  request: ContextRequest,
  needed: number,
): Promise<UserError> {
  const { place, resolve } = await fitter(llama, model, request);
  let largest: number | undefined;
  try {
    largest = await resolve({ min: 256, max: Math.min(needed, trainedCap(model.trainContextSize)) });
    if (largest >= needed) largest = undefined; // the estimate says it fits, yet it did not: no size to offer
  } catch {
    largest = undefined;
  }
  const fileType = model.fileInfo.metadata.general?.file_type;
  // GGUF file types 0 and 1 are all-F32 and mostly-F16: a quantized file would be a fraction of the size.
  const fullPrecision = fileType === 0 || fileType === 1;
  return new UserError(
    noFitMessage({ label: request.label, setting: request.setting, needed, largest, place, fullPrecision }),
  );
}

/** The memory a request's contexts may take, and node-llama-cpp's sizing of one of them within it. */
async function fitter(
  llama: Llama,
  model: LlamaModel,
  request: ContextRequest,
): Promise<{ readonly place: MemoryPlace; readonly resolve: (size: { min: number; max: number }) => Promise<number> }> {
  const resolver = model.fileInsights.configurationResolver;
  const onGpu = model.gpuLayers > 0;
  const vram = await llama.getVramState();
  const ram = await llama.getRamState();
  const share = Math.max(1, request.contexts);
  // RAM as node-llama-cpp counts it when it sizes a context: everything not wired (page cache can be evicted).
  const ramFree = ram.total - ram.wired;
  const place: MemoryPlace = onGpu
    ? { where: "VRAM", free: vram.free / share }
    : { where: "RAM", free: ramFree / share };
  const resolve = (size: { min: number; max: number }) =>
    resolver.resolveContextContextSize(size, {
      modelGpuLayers: model.gpuLayers,
      modelTrainContextSize: model.trainContextSize,
      flashAttention: false,
      sequences: request.sequences,
      // Separate contexts each take their share of what is free, so that the last one opened fits too.
      ...(share > 1
        ? {
            getVramState: async () => ({ total: vram.total, free: vram.free / share, unifiedSize: vram.unifiedSize }),
            getRamState: async () => ({ total: ram.total, free: ramFree / share }),
          }
        : {}),
    });
  return { place, resolve };
}

/**
 * When some of a model's layers are on the GPU and some not: how many, and what it costs. Undefined when all or none
 * are (none is said by the backend line and the GPU note).
 */
export function partialOffloadNote(
  label: string,
  gpuLayers: number,
  totalLayers: number,
  freeVram: number,
): string | undefined {
  if (gpuLayers <= 0 || gpuLayers >= totalLayers) return undefined;
  const rest = totalLayers - gpuLayers;
  return (
    `model ${label}: only ${gpuLayers} of its ${totalLayers} layers fit on the GPU (${formatBytes(freeVram)} of VRAM ` +
    `free); the other ${rest} run on the CPU at every token, so each token waits on the CPU's share ` +
    `(${Math.round((100 * rest) / totalLayers)}% of the layers) and the run goes at a speed between the GPU's and ` +
    "the CPU's (the warm-up measures it); --quant q8_0 or q4_k_m lets every layer fit"
  );
}

/**
 * --context-size's value: "auto", or the number given (a value out of range is the setting's range check's to
 * refuse, in the same words as every number setting's). A list (the flag given twice) or a word is refused here.
 */
export function parseContextSize(value: unknown): ContextSizeSetting {
  if (value === "auto") return value;
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  throw new UserError(`--context-size must be auto or a whole number of tokens, got ${JSON.stringify(value)}`, 2);
}
