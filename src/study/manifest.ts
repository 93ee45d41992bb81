// DIR/manifest.json: what produced a run folder's answers (model files, runtime, search, inputs, settings, times).
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Corpus } from "../corpus/types.ts";
import type { ModelInfo } from "../llm/types.ts";
import type { EmbeddingDtype, EmbeddingInfo, RetrieverKind } from "../search/types.ts";
import { UserError } from "../errors.ts";
import { MAX_TURNS } from "./agent-loop.ts";
import { AGENT_TOOLS, READ_SECTION_MAX_WORDS } from "./tools.ts";
import * as prompts from "./prompts.ts";
import { WORKFLOW_HITS } from "./workflow.ts";
import type { DesignId } from "./types.ts";

export const MANIFEST_FILE = "manifest.json";
export const MANIFEST_SCHEMA_VERSION = 1;

/** Every setting of a run, as the run command received it. */
export interface RunSettings {
  readonly models: readonly string[];
  readonly designs: readonly DesignId[];
  readonly questionsFile: string;
  /** --limit: the first N questions; undefined for all. */
  readonly limit: number | undefined;
  readonly parallel: number;
  readonly reuseCache: boolean;
  /** RuntimeOptions.sharedContext: parallel sequences batched on one context (default false). */
  readonly sharedContext?: boolean;
  readonly maxNewTokens: number;
  readonly retriever: RetrieverKind;
  readonly embeddingModel: string;
  readonly embeddingDtype: EmbeddingDtype;
  readonly contentDir: string;
  /** Model loading: GPU allowed, CPU threads, context size, a chat template file replacing the GGUF's. */
  readonly gpu: boolean;
  readonly threads: number | undefined;
  readonly contextSize: number | undefined;
  readonly chatTemplate: string | undefined;
}

/** The settings that shape every answer: a folder's runs must all share them. snake_case: this is a file format. */
export interface ManifestSettings {
  readonly parallel: number;
  readonly reuse_cache: boolean;
  readonly shared_context: boolean;
  readonly max_new_tokens: number;
  readonly max_turns: number;
  readonly search_hits: number;
  readonly read_section_max_words: number;
  /** sha256 over every prompt, the tool schemas and the forced prefix: edited prompts make a different study. */
  readonly prompts_sha256: string;
  readonly retriever: RetrieverKind;
  /** null with the bm25 retriever, which loads no embedding model. */
  readonly embedding_model: string | null;
  readonly embedding_dtype: EmbeddingDtype | null;
  readonly gpu: boolean;
  readonly threads: number | null;
  readonly context_size: number | null;
  readonly chat_template: string | null;
}

export interface ManifestModel {
  readonly id: string;
  readonly path: string;
  readonly files: readonly { readonly path: string; readonly bytes: number; readonly sha256: string }[];
  readonly architecture: string;
  readonly chat_template_sha256: string;
  readonly backend: string;
  readonly gpu_layers: number;
  readonly device_names: readonly string[];
  readonly context_size: number;
  readonly node_llama_cpp: string;
  readonly llama_cpp: string;
  /** How this model decoded; absent in manifests written before the repetition penalty existed (none then). */
  readonly decoding?: ManifestDecoding;
}

/** A model's repetition penalty and end tokens, and the generation_config.json (sha256, hub revision) they came from. */
export interface ManifestDecoding {
  readonly repetition_penalty_setting: "auto" | "none" | number;
  /** Applied by Transformers' rule; null: none. */
  readonly repetition_penalty: number | null;
  readonly generation_config: { readonly path: string; readonly sha256: string; readonly repo: string | null; readonly revision: string | null } | null;
  /** Token ids that end a reply; null: llama.cpp's end-of-generation tokens. */
  readonly stop_tokens: readonly number[] | null;
  readonly note: string;
}

export function manifestDecoding(d: ModelInfo["decoding"]): ManifestDecoding {
  const config = d.generationConfig;
  return {
    repetition_penalty_setting: d.setting,
    repetition_penalty: d.repetitionPenalty,
    generation_config: config === null ? null : { path: config.path, sha256: config.sha256, repo: config.hub?.repo ?? null, revision: config.hub?.revision ?? null },
    stop_tokens: d.stopTokens,
    note: d.note,
  };
}

/** One invocation of `run` on the folder: what it selected and when. */
export interface ManifestSession {
  readonly started_at: string;
  readonly finished_at: string | null;
  readonly models: readonly string[];
  readonly designs: readonly DesignId[];
  readonly limit: number | null;
  readonly ran: number | null;
  readonly skipped: number | null;
}

export interface RunManifest {
  readonly schema: typeof MANIFEST_SCHEMA_VERSION;
  readonly blogqa: { readonly version: string; readonly git_commit: string | null; readonly git_dirty: boolean | null };
  /** The first session's start and the last session's end (null while a session runs or after it was killed). */
  readonly started_at: string;
  readonly finished_at: string | null;
  readonly settings: ManifestSettings;
  /** Every model that has run into this folder, in first-run order. */
  readonly models: readonly ManifestModel[];
  /** The compute stack of the last model loaded. */
  readonly runtime: { readonly node_llama_cpp: string; readonly llama_cpp: string; readonly backend: string; readonly device_names: readonly string[] } | null;
  readonly embedding: { readonly model: string; readonly dtype: EmbeddingDtype; readonly library: string; readonly dimensions: number } | null;
  readonly corpus: { readonly dir: string; readonly sha256: string; readonly posts: readonly string[]; readonly sections: number };
  readonly questions: { readonly file: string; readonly sha256: string; readonly count: number };
  readonly host: { readonly node: string; readonly platform: string; readonly arch: string; readonly cpu: string; readonly cores: number; readonly memory_bytes: number };
  readonly sessions: readonly ManifestSession[];
}

export function manifestSettings(s: RunSettings): ManifestSettings {
  const dense = s.retriever !== "bm25";
  return {
    parallel: s.parallel,
    reuse_cache: s.reuseCache,
    shared_context: s.sharedContext ?? false,
    max_new_tokens: s.maxNewTokens,
    max_turns: MAX_TURNS,
    search_hits: WORKFLOW_HITS,
    read_section_max_words: READ_SECTION_MAX_WORDS,
    prompts_sha256: promptsSha256(),
    retriever: s.retriever,
    embedding_model: dense ? s.embeddingModel : null,
    embedding_dtype: dense ? s.embeddingDtype : null,
    gpu: s.gpu,
    threads: s.threads ?? null,
    context_size: s.contextSize ?? null,
    chat_template: s.chatTemplate ?? null,
  };
}

export function promptsSha256(): string {
  const sample = prompts.workflowUserPrompt("Q?", [{ post: "p", heading: "h", snippet: "s" }]);
  const parts = [prompts.WORKFLOW_SYSTEM_PROMPT, prompts.agentSystemPrompt("agent"), prompts.agentSystemPrompt("agent-search-first")];
  return sha256Text(JSON.stringify([...parts, prompts.FORCED_PREFIX, prompts.RAN_OUT_OF_TURNS, sample, AGENT_TOOLS]));
}

export function manifestModel(info: ModelInfo, files: ManifestModel["files"]): ManifestModel {
  return {
    id: info.id,
    path: info.path,
    files,
    architecture: info.architecture,
    chat_template_sha256: info.chatTemplateSha256,
    backend: info.backend,
    gpu_layers: info.gpuLayers,
    device_names: info.deviceNames,
    context_size: info.contextSize,
    node_llama_cpp: info.nodeLlamaCppVersion,
    llama_cpp: info.llamaCppRelease,
    decoding: manifestDecoding(info.decoding),
  };
}

export interface ManifestInputs {
  readonly settings: RunSettings;
  readonly corpus: Corpus;
  /** How many questions this session runs (after --limit). */
  readonly questionCount: number;
  /** The index's embedding model; undefined with bm25. */
  readonly embedding: EmbeddingInfo | undefined;
}

/** A new manifest for a folder without one (models are added as they load). */
export function newManifest(inputs: ManifestInputs, startedAt: Date): RunManifest {
  const { settings, corpus, embedding } = inputs;
  return {
    schema: MANIFEST_SCHEMA_VERSION,
    blogqa: blogqaVersion(),
    started_at: startedAt.toISOString(),
    finished_at: null,
    settings: manifestSettings(settings),
    models: [],
    runtime: null,
    embedding: embedding ? { model: embedding.model, dtype: embedding.dtype, library: embedding.library, dimensions: embedding.dimensions } : null,
    corpus: { dir: corpus.dir, sha256: corpus.hash, posts: corpus.posts.map((p) => p.slug), sections: corpus.sections.length },
    questions: { file: settings.questionsFile, sha256: sha256Text(readFileSync(settings.questionsFile)), count: inputs.questionCount },
    host: { node: process.version, platform: process.platform, arch: process.arch, cpu: os.cpus()[0]?.model ?? "unknown", cores: os.cpus().length, memory_bytes: os.totalmem() },
    sessions: [],
  };
}

/**
 * Why the runs already in a folder (written under `before`) cannot be mixed with runs made under `now`:
 * one line per difference in the settings, the inputs or the embedding model; empty when they can.
 * Models, designs and --limit may differ: they only choose which runs exist.
 */
export function manifestConflicts(before: RunManifest, now: RunManifest): string[] {
  const out: string[] = [];
  const differ = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${what}: ${JSON.stringify(a)} before, ${JSON.stringify(b)} now`);
  };
  for (const key of Object.keys(now.settings) as (keyof ManifestSettings)[]) differ(`setting ${key}`, before.settings[key], now.settings[key]);
  differ("corpus sha256", before.corpus.sha256, now.corpus.sha256);
  differ("questions sha256", before.questions.sha256, now.questions.sha256);
  differ("embedding model", before.embedding, now.embedding);
  return out;
}

/** Why a model loaded now is not the one that made this id's earlier runs; empty when it is. */
export function modelConflicts(before: RunManifest, model: ManifestModel): string[] {
  const earlier = before.models.find((m) => m.id === model.id);
  if (!earlier) return [];
  const out: string[] = [];
  const files = (m: ManifestModel) => m.files.map((f) => `${path.basename(f.path)} ${f.sha256}`).join(", ");
  if (files(earlier) !== files(model)) out.push(`model ${model.id}: files ${files(earlier)} before, ${files(model)} now`);
  if (earlier.chat_template_sha256 !== model.chat_template_sha256) out.push(`model ${model.id}: chat template sha256 ${earlier.chat_template_sha256} before, ${model.chat_template_sha256} now`);
  // what changes the tokens picked; the setting's name and the note do not ("auto" finding 1.1 is 1.1)
  const decodes = (d: ManifestDecoding | undefined) =>
    JSON.stringify({ penalty: d?.repetition_penalty ?? null, stop: d?.stop_tokens ?? null, config: d?.generation_config?.sha256 ?? null });
  if (decodes(earlier.decoding) !== decodes(model.decoding)) {
    out.push(`model ${model.id}: decoding ${decodes(earlier.decoding)} before, ${decodes(model.decoding)} now (see --repetition-penalty)`);
  }
  return out;
}

/** Differences that may change outputs but are not settings: reported, not refused. */
export function runtimeChanges(before: RunManifest, model: ManifestModel): string[] {
  const earlier = before.models.find((m) => m.id === model.id);
  if (!earlier) return [];
  const keys = ["backend", "device_names", "node_llama_cpp", "llama_cpp", "gpu_layers"] as const;
  return keys
    .filter((k) => JSON.stringify(earlier[k]) !== JSON.stringify(model[k]))
    .map((k) => `model ${model.id}: ${k} ${JSON.stringify(earlier[k])} before, ${JSON.stringify(model[k])} now`);
}

/** Reads DIR/manifest.json; undefined when there is none. */
export function readManifest(dir: string): RunManifest | undefined {
  const file = path.join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UserError(`${file} is not valid JSON (${(error as Error).message}); fix or remove it`);
  }
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (schema !== MANIFEST_SCHEMA_VERSION) throw new UserError(`${file}: manifest schema ${String(schema)}, this blogqa reads schema ${MANIFEST_SCHEMA_VERSION}`);
  return value as RunManifest;
}

/** Writes DIR/manifest.json atomically (a killed run leaves the old manifest or the new one, never half). */
export function writeManifestFile(dir: string, manifest: RunManifest): string {
  const file = path.join(dir, MANIFEST_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temp, file);
  return file;
}

export function sha256Text(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

const repoRoot = path.resolve(import.meta.dirname, "../..");

function blogqaVersion(): RunManifest["blogqa"] {
  const version = String(JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).version);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    // Dirty: tracked files differ from the commit, so the commit alone does not say what code ran.
    return { version, git_commit: git("rev-parse", "HEAD"), git_dirty: git("status", "--porcelain", "--untracked-files=no") !== "" };
  } catch {
    return { version, git_commit: null, git_dirty: null }; // not a git checkout (an unpacked tarball), or no git
  }
}
