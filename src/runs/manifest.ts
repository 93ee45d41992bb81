// DIR/manifest.json: what produced a run folder's answers (model files, runtime, search, inputs, settings, times).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { z } from "zod";
import os from "node:os";
import path from "node:path";
import type { Corpus } from "../corpus/index.ts";
import type { ModelInfo } from "../llm/index.ts";
import type { EmbeddingInfo } from "../search/index.ts";
import { UserError } from "../common/index.ts";
import { MAX_TURNS } from "../designs/index.ts";
import { AGENT_TOOLS, READ_SECTION_MAX_WORDS } from "../designs/index.ts";
import { DESIGNS, prompts, type DesignEntry } from "../designs/index.ts";
import { WORKFLOW_HITS } from "../designs/index.ts";
import type { DesignId, Wording } from "../designs/index.ts";
import {
  MANIFEST_SCHEMA_VERSION,
  manifestProblem,
  type manifestModelSchema,
  type manifestSchema,
  type manifestSettingsSchema,
} from "./manifest-schema.ts";
import { settingFields, type RunSettings } from "./settings.ts";
import { type Immutable, sha256Hex, writeFileAtomic } from "../common/index.ts";
import { readJsonIfPresent } from "./json-file.ts";
import { readingSha256 } from "./blog-reading.ts";
import type { AnswerRecord } from "./answer-types.ts";

export const MANIFEST_FILE = "manifest.json";

/** The settings that shape every answer (see settings.ts), and the study's fixed limits and prompts. */
export type ManifestSettings = Immutable<z.output<typeof manifestSettingsSchema>>;
/** A loaded model as the llm stage describes it, with the sha256 of each of its files. */
export type ManifestModel = Immutable<z.output<typeof manifestModelSchema>>;
export type RunManifest = Immutable<z.output<typeof manifestSchema>>;

/** What one invocation of `run` selected: the models, the designs and --limit (they choose runs, not answers). */
export interface RunSelection {
  readonly models: readonly string[];
  readonly designs: readonly DesignId[];
  /** --limit: the first N questions; undefined for all. */
  readonly limit: number | undefined;
}

export function manifestSettings(s: RunSettings): ManifestSettings {
  return {
    ...settingFields(s),
    max_turns: MAX_TURNS,
    search_hits: WORKFLOW_HITS,
    read_section_max_words: READ_SECTION_MAX_WORDS,
    prompts_sha256: promptsSha256(),
  };
}

/**
 * The hash of every text the designs send: each registry entry's own prompts in the registry's order, then what
 * they share (the loop's ran-out-of-turns answer, the workflow's user prompt on a sample, the tools). The study's
 * designs list theirs so that the hash is the one folders made before it was derived (a test holds it).
 */
export function promptsSha256(designs: Readonly<Record<string, DesignEntry>> = DESIGNS): string {
  const sample = prompts.workflowUserPrompt("Q?", [{ post: "p", heading: "h", snippet: "s" }]);
  const own = Object.values(designs).flatMap((d) => d.prompts ?? []);
  return sha256Hex(JSON.stringify([...own, prompts.RAN_OUT_OF_TURNS, sample, AGENT_TOOLS]));
}

export interface ManifestInputs {
  readonly settings: RunSettings;
  readonly selection: RunSelection;
  readonly questionsFile: string;
  readonly corpus: Corpus;
  /** How many questions this session runs (after --limit). */
  readonly questionCount: number;
  /** The index's embedding model; undefined with bm25. */
  readonly embedding: EmbeddingInfo | undefined;
  /** run --wordings: the wordings every design runs under; undefined without it (the study's alone). */
  readonly wordings?: readonly Wording[];
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
    embedding: embedding
      ? { model: embedding.model, dtype: embedding.dtype, library: embedding.library, dimensions: embedding.dimensions }
      : null,
    corpus: {
      dir: corpus.dir,
      sha256: corpus.hash,
      sections_sha256: readingSha256(corpus.sections),
      posts: corpus.posts.map((p) => p.slug),
      sections: corpus.sections.length,
      slug_rule: corpus.slugRule,
    },
    questions: {
      file: inputs.questionsFile,
      sha256: sha256Hex(readFileSync(inputs.questionsFile)),
      count: inputs.questionCount,
    },
    host: {
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      cpu: os.cpus()[0]?.model ?? "unknown",
      cores: os.cpus().length,
      memory_bytes: os.totalmem(),
    },
    sessions: [],
    ...(inputs.wordings !== undefined ? { wordings: wordingsRecord(inputs.wordings) } : {}),
  };
}

/** The manifest's record of the wordings: every text, and one hash over them all. */
function wordingsRecord(wordings: readonly Wording[]): NonNullable<RunManifest["wordings"]> {
  return { sha256: sha256Hex(JSON.stringify(wordings)), texts: wordings };
}

/**
 * Why the runs already in a folder (written under `before`) cannot be mixed with runs made under `now`:
 * one line per difference in the settings, the inputs or the embedding model; empty when they can.
 * Models, designs and --limit may differ: they only choose which runs exist.
 */
export function manifestConflicts(before: RunManifest, now: RunManifest, largestLoggedCall?: number): string[] {
  const out: string[] = [];
  const differ = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push(`${what}: ${JSON.stringify(a)} before, ${JSON.stringify(b)} now`);
  };
  // Both manifests' keys: a setting left out at its default is absent from one of them.
  const keys = new Set([...Object.keys(before.settings), ...Object.keys(now.settings)]) as Set<keyof ManifestSettings>;
  for (const key of keys) {
    if (key === "context_size" && contextSizeChangeKeepsAnswers(largestLoggedCall, now.settings.context_size)) continue;
    differ(`setting ${key}`, before.settings[key] ?? null, now.settings[key] ?? null);
  }
  differ("corpus sha256", before.corpus.sha256, now.corpus.sha256);
  differ("questions sha256", before.questions.sha256, now.questions.sha256);
  differ("embedding model", before.embedding, now.embedding);
  differ("wordings sha256", before.wordings?.sha256 ?? null, now.wordings?.sha256 ?? null);
  return out;
}

/**
 * Whether a folder's answers stand under another context size: llama.cpp computes a prompt alike in any context it
 * fits (the same greedy runs at 4,096 and 32,768 tokens log byte-identical transcripts: test/runs/context-size-resume), so a size that
 * still holds the largest logged call, its prompt and its reply (`largestLoggedCall` tokens, from runs that
 * answered), changes nothing logged; auto is fitted to hold it. Runs that failed are retried by a resume anyway.
 */
export function contextSizeChangeKeepsAnswers(
  largestLoggedCall: number | undefined,
  contextSize: number | "auto" | null | undefined,
): boolean {
  if (largestLoggedCall === undefined) return false;
  // auto never fits a context below the largest logged call and one token more (runs/context-floor.ts)
  if (contextSize === "auto") return true;
  // node-llama-cpp never lets a sequence hold more than contextSize - 1 tokens
  return typeof contextSize === "number" && largestLoggedCall <= contextSize - 1;
}

/** The most tokens one logged call held (its prompt and its reply), over the runs that did not fail; 0 for none. */
export function largestCallTokens(records: readonly AnswerRecord[]): number {
  let largest = 0;
  for (const r of records)
    if (r.outcome !== "error")
      for (const c of r.transcript.calls) largest = Math.max(largest, c.record.tokensRead + c.record.tokensGenerated);
  return largest;
}

/** Why a model loaded now is not the one that made this id's earlier runs; empty when it is. */
export function modelConflicts(before: RunManifest, model: ManifestModel): string[] {
  const earlier = before.models.find((m) => m.id === model.id);
  if (!earlier) return [];
  const out: string[] = [];
  const files = (m: ManifestModel) => m.files.map((f) => `${path.basename(f.path)} ${f.sha256}`).join(", ");
  if (files(earlier) !== files(model))
    out.push(`model ${model.id}: files ${files(earlier)} before, ${files(model)} now`);
  if (earlier.chatTemplateSha256 !== model.chatTemplateSha256)
    out.push(
      `model ${model.id}: chat template sha256 ${earlier.chatTemplateSha256} before, ${model.chatTemplateSha256} now`,
    );
  // Answers parsed one way must not be mixed with answers parsed another (hermes is what older manifests mean).
  const format = (m: ManifestModel) => m.toolFormat ?? "hermes";
  if (format(earlier) !== format(model))
    out.push(`model ${model.id}: tool-call format ${format(earlier)} before, ${format(model)} now`);
  const decoding = decodingChange(model.id, earlier.decoding, model.decoding);
  if (decoding !== undefined) out.push(decoding);
  return out;
}

/** A model's decoding as a manifest records it: older manifests lack the special-token rule (llama.cpp's then). */
type RecordedDecoding = Omit<ModelInfo["decoding"], "specialTokens"> & {
  readonly specialTokens?: ModelInfo["decoding"]["specialTokens"];
};

/**
 * Why a model decoding by `now` would not pick the tokens it picked by `before`; undefined when it would. The setting's
 * name and the note do not matter ("auto" finding 1.1 decodes as 1.1); the penalty, end tokens, config bytes and
 * which tokens a reply leaves out do.
 */
export function decodingChange(id: string, before: RecordedDecoding, now: RecordedDecoding): string | undefined {
  const special = (d: RecordedDecoding) => {
    const rule = d.specialTokens ?? { source: "gguf" };
    return rule.source === "tokenizer_config.json" ? rule.sha256 : rule.source;
  };
  const decodes = (d: RecordedDecoding) =>
    JSON.stringify({
      penalty: d.repetitionPenalty,
      stop: d.stopTokens,
      config: d.generationConfig?.sha256 ?? null,
      special: special(d),
    });
  if (decodes(before) === decodes(now)) return undefined;
  return `model ${id}: decoding ${decodes(before)} before, ${decodes(now)} now (see --repetition-penalty and --generation-config)`;
}

/** Differences that may change outputs but are not settings: reported, not refused. */
export function runtimeChanges(before: RunManifest, model: ManifestModel): string[] {
  const earlier = before.models.find((m) => m.id === model.id);
  if (!earlier) return [];
  const keys = [
    "backend",
    "deviceNames",
    "nodeLlamaCppVersion",
    "llamaCppRelease",
    "binary",
    "gpuLayers",
    "threads",
  ] as const;
  return keys
    .filter((k) => JSON.stringify(earlier[k]) !== JSON.stringify(model[k]))
    .map((k) => `model ${model.id}: ${k} ${JSON.stringify(earlier[k])} before, ${JSON.stringify(model[k])} now`);
}

/**
 * Reads and checks DIR/manifest.json; undefined when there is none. Anything else than a manifest this blogqa
 * wrote (bad JSON, another schema, a missing or mistyped field) stops with one line naming the file and the field.
 */
export function readManifest(dir: string): RunManifest | undefined {
  const file = path.join(dir, MANIFEST_FILE);
  const value = readJsonIfPresent(file);
  if (value === undefined) return undefined;
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (schema !== MANIFEST_SCHEMA_VERSION) {
    throw new UserError(
      `${file}: manifest schema ${String(schema)}, this blogqa reads schema ${MANIFEST_SCHEMA_VERSION}; rerun with --fresh or into another --out`,
    );
  }
  const problem = manifestProblem(value);
  if (problem)
    throw new UserError(
      `${file}: ${problem}; the manifest is damaged: restore it, or rerun with --fresh or into another --out`,
    );
  return value as RunManifest;
}

/** Writes DIR/manifest.json atomically (a killed run leaves the old manifest or the new one, never half). */
export function writeManifestFile(dir: string, manifest: RunManifest): string {
  const file = path.join(dir, MANIFEST_FILE);
  writeFileAtomic(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return file;
}

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** This blogqa: its package.json version, and the commit it runs from where it runs from a git checkout. */
export function blogqaVersion(): RunManifest["blogqa"] {
  const version = String(JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).version);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    // Dirty: tracked files differ from the commit, so the commit alone does not say what code ran.
    return {
      version,
      git_commit: git("rev-parse", "HEAD"),
      git_dirty: git("status", "--porcelain", "--untracked-files=no") !== "",
    };
  } catch {
    return { version, git_commit: null, git_dirty: null }; // not a git checkout (an unpacked tarball), or no git
  }
}
