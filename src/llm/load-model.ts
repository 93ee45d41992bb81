// Loads a GGUF model with node-llama-cpp on the best backend found, and opens runtimes (sequences) on it.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { GgufFileInfo, Llama, LlamaContext, LlamaModel } from "node-llama-cpp";
import { UserError } from "../common/index.ts";
import {
  compileChatTemplate,
  missingTemplateError,
  renderChatPrompt,
  type ChatTemplate,
  type TemplateTokens,
} from "./chat-template.ts";
import { NO_PENALTY, type Decoding, type RepetitionPenaltySetting } from "./generation-config.ts";
import { truncatedGguf } from "./gguf-complete.ts";
import { resolveModelFiles, type ModelFiles } from "./model-files.ts";
import { resolveDecoding, resolveSpecialTokens } from "./resolve-decoding.ts";
import { importNodeLlamaCpp, inheritedThreadpoolSize, startedWithPoolOfOne } from "./native.ts";
import { serializeSampling } from "./serialize-sampling.ts";
import { SequenceRuntime } from "./sequence-runtime.ts";
import type { ChatRuntime, GenerateRequest, LoadedModel, ModelInfo, RuntimeOptions, SpeedSample } from "./types.ts";
import type { OnTick } from "../common/index.ts";
import {
  CONTEXT_FLOOR,
  fitContextSize,
  noFitError,
  partialOffloadNote,
  trainedCap,
  type ContextFit,
  type ContextSizeSetting,
} from "./context-fit.ts";
import { gpuNotUsedNote } from "./gpu-note.ts";

/**
 * Qwen2.5's trained positions: the most a fitted context (--context-size auto, the default) takes for the study's
 * models. The study's prompts stay near 1,000 tokens; room for the designs' theoretical longest (`npm run
 * context-bound`: the forced design, five replies each packing 15 searches) would cost a laptop GPU over a GiB more
 * of KV cache and working buffers, for runs no model makes. A run whose prompt does not fit is logged as failed with
 * stopReason context-overflow and counted apart under the tables, never an error that stops the study; a resume
 * retries it, so a larger --context-size answers it later.
 */
export const DEFAULT_CONTEXT_SIZE = 32768;

export interface LoadModelOptions {
  /** Downloaded models go to <cacheDir>/models. */
  readonly cacheDir: string;
  /** true: CUDA, Vulkan or Metal when one works, else CPU. false: CPU only. */
  readonly gpu: boolean;
  /** CPU threads per context; default from the model's size (see defaultThreads). */
  readonly threads?: number;
  /**
   * Tokens per sequence: "auto" (the default) fits them to free memory, from `contextFloor` up to the model's
   * trained length; a number is used as given.
   */
  readonly contextSize?: ContextSizeSetting;
  /** With auto: the fewest tokens the run's calls need (default CONTEXT_FLOOR). */
  readonly contextFloor?: number;
  /** A Jinja chat template to use instead of the one in the GGUF metadata. */
  readonly chatTemplate?: string;
  /**
   * The repetition penalty: "auto" (the model's generation_config.json, as the study's Transformers code), "none"
   * (pure greedy, the default here), or a number. See resolve-decoding.ts for where the config is looked for.
   */
  readonly repetitionPenalty?: RepetitionPenaltySetting;
  /** A generation_config.json to use instead of looking for one. */
  readonly generationConfig?: string | undefined;
  /** Tokenizer and template only, no weights: enough for rendering and counting tokens. */
  readonly vocabOnly?: boolean;
  /** Progress and backend lines, meant for stderr. */
  readonly onProgress?: (message: string) => void;
  /** Counts megabytes downloaded when the model's files must be fetched. */
  readonly onTick?: OnTick;
}

/**
 * Threads that suit the model: llama.cpp's per-token thread sync costs more than a tiny model's math, and with the
 * default count a 2-layer test model took 8-13 s per call on 2 cores against ~0.1 s with one thread.
 */
export function defaultThreads(modelBytes: number, cpuMathCores: number): number {
  return modelBytes < 256 * 1024 * 1024 ? 1 : Math.max(1, cpuMathCores);
}

export async function loadModel(id: string, options: LoadModelOptions): Promise<LoadedModel> {
  const report = options.onProgress ?? (() => {});
  const contextSize = options.contextSize ?? "auto";
  if (contextSize !== "auto" && (!Number.isSafeInteger(contextSize) || contextSize < 1))
    throw new UserError(`--context-size ${contextSize}: give a whole number of tokens, 1 or more`);
  const contextFloor = options.contextFloor ?? CONTEXT_FLOOR;
  const files = await resolveModelFiles(id, {
    cacheDir: options.cacheDir,
    onProgress: report,
    ...(options.onTick ? { onTick: options.onTick } : {}),
  });
  // llama.cpp says only "Failed to load model" of a file cut short, and the metadata reader reads past its end.
  await readGgufInfo(files);
  const decoding: Decoding = options.vocabOnly
    ? NO_PENALTY
    : {
        ...(await resolveDecoding(id, files.path, {
          setting: options.repetitionPenalty ?? "none",
          ...(options.generationConfig !== undefined ? { generationConfigFile: options.generationConfig } : {}),
          cacheDir: options.cacheDir,
          onProgress: report,
        })),
        specialTokens: await resolveSpecialTokens(id, files.path, { cacheDir: options.cacheDir, onProgress: report }),
      };
  const llama = await sharedLlama(options.gpu ? "auto" : false);
  let model: LlamaModel;
  try {
    model = await loadWeights(llama, files.path, {
      gpu: options.gpu,
      vocabOnly: options.vocabOnly ?? false,
      // Layers leave room on the GPU for the context the run needs; the context then takes what is left.
      fitContext: contextSize === "auto" ? contextFloor : contextSize,
    });
  } catch (error) {
    // Load failures reach JS only as "Failed to load model"; llama.cpp's own reason is in its log.
    const reason = recentLog.slice(-3).join(" | ");
    throw new UserError(
      `Cannot load ${files.path}: ${(error as Error).message}${reason ? ` (llama.cpp: ${reason})` : ""}`,
    );
  }
  let template: ChatTemplate;
  try {
    template = readTemplate(model, files.path, options.chatTemplate);
  } catch (error) {
    await model.dispose();
    throw error;
  }
  const threads = options.threads ?? defaultThreads(sum(files.files.map((f) => f.bytes)), llama.cpuMathCores);
  const backend = llama.gpu === false ? "cpu" : llama.gpu;
  const info: ModelInfo = {
    id,
    path: files.path,
    files: files.files,
    architecture: String(model.fileInfo.metadata.general?.architecture ?? "unknown"),
    ...(typeof model.fileInfo.metadata.general?.name === "string"
      ? { name: model.fileInfo.metadata.general.name }
      : {}),
    chatTemplateSha256: template.sha256,
    backend,
    gpuLayers: model.gpuLayers,
    deviceNames: await llama.getGpuDeviceNames(),
    nodeLlamaCppVersion: nodeLlamaCppVersion(),
    llamaCppRelease: llama.llamaCppRelease.release,
    binary: {
      buildType: llama.buildType,
      cmakeOptions: { ...llama.cmakeOptions },
      systemInfo: llama.systemInfo.trim(),
    },
    contextSize: contextSize === "auto" ? Math.max(contextFloor, trainedCap(model.trainContextSize)) : contextSize,
    decoding,
    threads,
  };
  if (!options.vocabOnly) {
    const gpuNote = await gpuNotUsedNote(backend);
    if (gpuNote !== undefined) reportOnce(gpuNote, report);
    const slower = prebuiltCpuNote(info);
    if (slower !== undefined) reportOnce(slower, report);
    if (contextSize !== "auto") {
      const pastTraining = pastTrainingNote(path.basename(files.path), contextSize, model.trainContextSize);
      if (pastTraining !== undefined) report(pastTraining);
    }
    report(`model ${path.basename(files.path)}: ${decoding.note}`);
    report(`model ${path.basename(files.path)}: ${decoding.specialTokens.note}`);
    const devices = info.deviceNames.length > 0 ? ` on ${info.deviceNames.join(", ")}` : "";
    report(
      `model ${path.basename(files.path)}: backend ${backend}${devices}, ${model.gpuLayers} layer(s) on the GPU, ${threads} CPU thread(s)`,
    );
    const partial = partialOffloadNote(
      path.basename(files.path),
      model.gpuLayers,
      model.fileInsights.totalLayers,
      (await llama.getVramState()).free,
    );
    if (partial !== undefined) report(partial);
  }
  return new NodeLlamaModel(
    llama,
    model,
    template,
    info,
    threads,
    { setting: contextSize, floor: contextFloor },
    report,
  );
}

/**
 * Loads the weights, on the GPU as many layers as leave room for a context of `fitContext` tokens; where none
 * would, as many as node-llama-cpp places by itself (the context is then sized, or refused, on its own).
 */
async function loadWeights(
  llama: Llama,
  modelPath: string,
  o: { readonly gpu: boolean; readonly vocabOnly: boolean; readonly fitContext: number },
): Promise<LlamaModel> {
  const load = (gpuLayers: "auto" | 0 | { fitContext: { contextSize: number } }) =>
    llama.loadModel({ modelPath, gpuLayers, vocabOnly: o.vocabOnly });
  if (!o.gpu || o.vocabOnly || llama.gpu === false) return load(o.gpu ? "auto" : 0);
  const lib = await importNodeLlamaCpp();
  try {
    return await load({ fitContext: { contextSize: o.fitContext } });
  } catch (error) {
    if (!(error instanceof lib.InsufficientMemoryError)) throw error;
    return load("auto");
  }
}

/**
 * What can be known about a model without loading its weights: its files are there (downloaded if need be), the
 * first one reads as a GGUF, and it has a chat template (or `chatTemplate` names a file that exists).
 */
export async function checkModel(
  id: string,
  options: Pick<LoadModelOptions, "cacheDir" | "chatTemplate" | "onProgress">,
): Promise<void> {
  const files = await resolveModelFiles(id, {
    cacheDir: options.cacheDir,
    onProgress: options.onProgress ?? (() => {}),
  });
  const info = await readGgufInfo(files);
  if (options.chatTemplate !== undefined) {
    if (!fs.existsSync(options.chatTemplate))
      throw new UserError(`No chat template file at ${path.resolve(options.chatTemplate)}`);
  } else {
    const source = info.metadata.tokenizer?.chat_template;
    if (typeof source !== "string" || source.trim() === "") throw missingTemplateError(files.path);
  }
}

/** A model's GGUF metadata, checked to be whole: a UserError for a file that is not a GGUF or is cut short. */
async function readGgufInfo(files: ModelFiles): Promise<GgufFileInfo> {
  const lib = await importNodeLlamaCpp();
  let info: GgufFileInfo;
  try {
    info = await lib.readGgufFileInfo(files.path, { logWarnings: false });
  } catch (error) {
    throw new UserError(
      `Cannot read ${files.path} as a GGUF model (${(error as Error).message}); check the --model path`,
    );
  }
  const truncated = truncatedGguf(
    info,
    files.files.map((f) => f.path),
  );
  if (truncated !== undefined) throw truncated;
  return info;
}

const llamas = new Map<"auto" | false, Promise<Llama>>();
const recentLog: string[] = [];

/**
 * On the CPU with node-llama-cpp's prebuilt binary, prompts are evaluated well below the speed of the same llama.cpp
 * built on the machine (BENCHMARKS.md): say so, once, with the command that builds it. Undefined otherwise.
 */
export function prebuiltCpuNote(info: Pick<ModelInfo, "backend" | "binary">): string | undefined {
  if (info.backend !== "cpu" || info.binary?.buildType !== "prebuilt") return undefined;
  return (
    "note: llama.cpp runs on the CPU from node-llama-cpp's prebuilt binary; `npm run build:cpu` builds it for this " +
    "machine from the bundled source (minutes, offline), and prompt evaluation then runs faster (BENCHMARKS.md " +
    "measures by how much)"
  );
}

/**
 * A context longer than the model was trained on is allowed, as the study's Transformers allowed any length: only a
 * prompt past the trained positions runs beyond training. Said once per model, in place of llama.cpp's warning at
 * every context it opens. Undefined when the context is within training (or the model states no length).
 */
export function pastTrainingNote(model: string, contextSize: number, trainContextSize: number): string | undefined {
  if (!(trainContextSize > 0) || contextSize <= trainContextSize) return undefined;
  return (
    `model ${model}: a context of ${contextSize} tokens per sequence, past the ${trainContextSize} it was trained ` +
    `on; a prompt longer than ${trainContextSize} tokens runs past its training (the study set no limit either)`
  );
}

const said = new Set<string>();

/** A note a process prints once, however many models it loads. */
function reportOnce(line: string, report: (line: string) => void): void {
  if (said.has(line)) return;
  said.add(line);
  report(line);
}

/**
 * One llama.cpp backend per GPU setting for the whole process, never disposed. subtle: after a Llama is
 * disposed, the next one no longer routes llama.cpp's log through our logger and it lands on stdout.
 */
export function sharedLlama(gpu: "auto" | false): Promise<Llama> {
  let llama = llamas.get(gpu);
  if (llama === undefined) {
    llama = createLlama(gpu);
    llamas.set(gpu, llama);
    llama.catch(() => llamas.delete(gpu));
  }
  return llama;
}

async function createLlama(gpu: "auto" | false): Promise<Llama> {
  const lib = await importNodeLlamaCpp();
  try {
    return await lib.getLlama({
      gpu,
      // Prebuilt binaries only: building llama.cpp from source needs a toolchain and network we may not have.
      build: "never",
      // 0: no global cap, so each context gets exactly the threads it asks for.
      maxThreads: 0,
      logLevel: lib.LlamaLogLevel.warn,
      logger: (level, message) => logLine(level, message, recentLog),
    });
  } catch (error) {
    throw new UserError(
      `node-llama-cpp found no usable llama.cpp binary for this machine (${(error as Error).message}).`,
    );
  }
}

function readTemplate(model: LlamaModel, modelPath: string, file: string | undefined): ChatTemplate {
  if (file !== undefined) {
    if (!fs.existsSync(file)) throw new UserError(`No chat template file at ${path.resolve(file)}`);
    return compileChatTemplate(fs.readFileSync(file, "utf8"), file);
  }
  const source = model.fileInfo.metadata.tokenizer?.chat_template;
  if (typeof source !== "string" || source.trim() === "") throw missingTemplateError(modelPath);
  return compileChatTemplate(source, `the GGUF metadata of ${path.basename(modelPath)}`);
}

class NodeLlamaModel implements LoadedModel {
  private readonly contexts: LlamaContext[] = [];
  private readonly tokens: TemplateTokens;
  /** The context size chosen when the runtimes were opened, and how (until then, the setting's upper bound). */
  private fitted: { readonly size: number; readonly fit: ContextFit } | undefined;

  constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    readonly template: ChatTemplate,
    private readonly loadedInfo: ModelInfo,
    private readonly threads: number,
    private readonly context: { readonly setting: ContextSizeSetting; readonly floor: number },
    private readonly report: (line: string) => void,
  ) {
    const t = model.tokens;
    this.tokens = {
      ...(t.bosString != null ? { bos_token: t.bosString } : {}),
      ...(t.eosString != null ? { eos_token: t.eosString } : {}),
    };
  }

  get info(): ModelInfo {
    if (this.fitted === undefined) return this.loadedInfo;
    return { ...this.loadedInfo, contextSize: this.fitted.size, contextFit: this.fitted.fit };
  }

  renderPrompt(request: GenerateRequest): string {
    return renderChatPrompt(this.template, request, this.tokens);
  }

  countTokens(text: string): number {
    return this.model.tokenize(text, true).length;
  }

  async openRuntimes(count: number, options: RuntimeOptions): Promise<ChatRuntime[]> {
    if (!Number.isInteger(count) || count < 1) throw new UserError(`Need at least one runtime, got ${count}`);
    const render = (request: GenerateRequest) => this.renderPrompt(request);
    const shared = options.sharedContext === true && count > 1;
    // Separate contexts split the CPU threads between them: K contexts of all the threads each would run K times
    // as many threads as cores, and llama.cpp's per-step barriers spin while the scheduler juggles them.
    const threads = shared ? this.threads : Math.max(1, Math.floor(this.threads / count));
    const label = path.basename(this.loadedInfo.path);
    this.fitted = await fitContextSize(this.llama, this.model, {
      setting: this.context.setting,
      floor: this.context.floor,
      sequences: shared ? count : 1,
      contexts: shared ? 1 : count,
      label,
    });
    if (this.context.setting === "auto") {
      this.report(`model ${label}: context ${this.fitted.size} tokens per sequence (${this.fitted.fit.reason})`);
      const pastTraining = pastTrainingNote(label, this.fitted.size, this.model.trainContextSize);
      if (pastTraining !== undefined) this.report(pastTraining);
    }
    const contexts: LlamaContext[] = [];
    // One after another: each context is allocated before the next one is sized against what is left.
    for (let i = 0; i < (shared ? 1 : count); i++) {
      const context = await this.createContext(shared ? count : 1, threads, shared ? 1 : count);
      contexts.push(context);
      this.contexts.push(context);
    }
    if (shared) this.guardParallelSampling(contexts[0]!);
    const sequences = shared
      ? Array.from({ length: count }, () => contexts[0]!.getSequence())
      : contexts.map((c) => c.getSequence());
    const decoding = this.info.decoding;
    return sequences.map(
      (s) => new SequenceRuntime(this.model, s, { reuseCache: options.reuseCache, render, decoding }),
    );
  }

  async measureSpeed(): Promise<SpeedSample> {
    // Its own small context, opened and closed before the run's: the run's sequences never see these tokens.
    const context = await this.model.createContext({
      sequences: 1,
      contextSize: 1024,
      threads: { ideal: this.threads, min: this.threads },
      flashAttention: false,
    });
    try {
      const sequence = context.getSequence();
      const prompt = this.model.tokenize(WARM_UP_TEXT.repeat(40), false).slice(0, WARM_UP_PROMPT_TOKENS);
      const started = performance.now();
      let first = Number.NaN;
      let last = Number.NaN;
      let decoded = 0;
      for await (const _token of sequence.evaluate(prompt, { temperature: 0 })) {
        last = performance.now();
        if (decoded === 0) first = last;
        decoded++;
        if (decoded > WARM_UP_DECODE_TOKENS) break;
      }
      // one token comes with the prompt's evaluation; each one after it is a decoding step
      return {
        promptTokens: prompt.length,
        promptTokensPerSecond: prompt.length / Math.max(1e-6, (first - started) / 1000),
        decodeTokens: decoded - 1,
        decodeTokensPerSecond: (decoded - 1) / Math.max(1e-6, (last - first) / 1000),
      };
    } finally {
      await context.dispose();
    }
  }

  private async createContext(sequences: number, threads: number, contexts: number): Promise<LlamaContext> {
    try {
      return await this.newContext(sequences, threads);
    } catch (error) {
      // node-llama-cpp refuses a size the memory cannot hold with InsufficientMemoryError; the runner opens contexts
      // before --fresh removes anything, so this line leaves the folder as it was.
      const lib = await importNodeLlamaCpp();
      if (!(error instanceof lib.InsufficientMemoryError))
        throw new UserError(
          `--context-size ${this.info.contextSize}: ${(error as Error).message}; choose a smaller context size`,
        );
      const label = path.basename(this.loadedInfo.path);
      const request = { setting: this.context.setting, floor: this.context.floor, sequences, contexts, label };
      throw await noFitError(this.llama, this.model, request, this.info.contextSize);
    }
  }

  private newContext(sequences: number, threads: number): Promise<LlamaContext> {
    return this.model.createContext({
      sequences,
      contextSize: this.info.contextSize,
      threads: { ideal: threads, min: threads },
      // A failed allocation should say so, not silently shrink the context we report.
      failedCreationRemedy: false,
      // subtle: llama.cpp's CPU flash attention gives results that depend on how the prompt was split into
      // batches, so a reused KV cache changed 3 of 48 tiny-model replies; without it, 0 of 48 (and 0 of 64
      // chunkings tried). The study's contexts are short, so its memory savings do not matter here.
      flashAttention: false,
    });
  }

  /** See serialize-sampling.ts: several sequences of one context must not sample at the same time. */
  private guardParallelSampling(context: LlamaContext): void {
    if (serializeSampling(context) || startedWithPoolOfOne()) return;
    throw new UserError(
      `Sequences sharing one context need UV_THREADPOOL_SIZE=1 in the environment before blogqa starts ` +
        `(it is ${inheritedThreadpoolSize ?? "unset"}); otherwise node-llama-cpp 3.21.1 can mix up their outputs.`,
    );
  }

  async dispose(): Promise<void> {
    for (const context of this.contexts.splice(0)) await context.dispose();
    // The Llama backend stays: it is shared by every model this process loads (see sharedLlama).
    await this.model.dispose();
  }
}

function nodeLlamaCppVersion(): string {
  // The package's exports map hides package.json, so find it from the resolved entry point.
  const entry = createRequire(import.meta.url).resolve("node-llama-cpp");
  let dir = path.dirname(entry);
  while (!fs.existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return String(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version);
}

/** llama.cpp's log lines go to stderr; a few recent ones are kept to explain load failures. */
function logLine(level: string, message: string, recent: string[]): void {
  const line = message.trim();
  if (line === "") return;
  recent.push(line);
  if (recent.length > 20) recent.shift();
  // Harmless for the Qwen vocabulary: llama.cpp flags '</s>' (128247), which Qwen ships as ordinary text.
  if (line.includes("control-looking token")) return;
  // Said once per model by pastTrainingNote instead of at every context opened.
  if (line.includes("possible training context overflow")) return;
  process.stderr.write(`llama.cpp ${level}: ${line}\n`);
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The warm-up's prompt: ordinary English, about 11 tokens a sentence in Qwen's and Llama's vocabularies. */
const WARM_UP_TEXT = "The posts below describe how the search tools read a section of the blog and cite it. ";
/** Tokens of the warm-up's prompt and its greedy reply: about the study's calls' shape, a few seconds on a CPU. */
const WARM_UP_PROMPT_TOKENS = 256;
const WARM_UP_DECODE_TOKENS = 16;
