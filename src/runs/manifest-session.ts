// One `run` session's manifest: refuse to mix settings or readings of the blog in a folder, record each model as it
// loads, stamp the end.
import type { RunFormat } from "../toolcalls/index.ts";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { ModelInfo } from "../llm/index.ts";
import { UserError } from "../common/index.ts";
import { ANSWERS_FILE, readAnswerLog } from "./answer-log.ts";
import { cachedSha256 } from "./file-sha256.ts";
import { checkReading } from "./blog-reading.ts";
import type { ModelEntryFields } from "./settings.ts";
import {
  MANIFEST_FILE,
  largestCallTokens,
  manifestConflicts,
  modelConflicts,
  newManifest,
  readManifest,
  runtimeChanges,
  writeManifestFile,
  type ManifestInputs,
  type ManifestModel,
  type RunManifest,
} from "./manifest.ts";

export interface ManifestSessionOptions {
  /** The run starts over (--fresh): the folder's earlier manifest is replaced, not checked. */
  readonly fresh?: boolean;
  /** Where model file hashes are remembered (<cacheDir>/file-sha256.json). */
  readonly cacheDir: string;
  readonly onProgress?: (message: string) => void;
  readonly now?: () => Date;
  /**
   * --accept-new-reading: add to a folder whose answers this blogqa would have read from the blog otherwise (or whose
   * manifest predates the record of a reading), with a note; each session records the reading it used.
   */
  readonly acceptNewReading?: boolean;
}

export interface ManifestWriter {
  /** The manifest as it stands (written to disk by recordModel and finish). */
  current(): RunManifest;
  /** Hashes a loaded model's files (cached), refuses one that differs from this id's earlier runs, writes the manifest. */
  recordModel(info: ModelInfo & { readonly toolFormat?: RunFormat; readonly entry?: ModelEntryFields }): Promise<void>;
  /** Stamps the session's end and counts, writes the manifest. */
  finish(result: { readonly ran: number; readonly skipped: number }): void;
}

/**
 * Starts a session's manifest for run folder `dir`, checking it against the one left by earlier runs there.
 * Throws a UserError when the folder holds answers made with other settings or inputs: mixing them would make
 * the tables compare runs that did not share a setup. Writes nothing yet: the first write happens once a model
 * has loaded (after runStudy took the folder's lock), so a second process refused by the lock cannot touch it.
 */
export function startManifest(dir: string, inputs: ManifestInputs, options: ManifestSessionOptions): ManifestWriter {
  const now = options.now ?? (() => new Date());
  const progress = options.onProgress ?? (() => {});
  const fresh = newManifest(inputs, now());
  const answersFile = path.join(dir, ANSWERS_FILE);
  const hasAnswers = !options.fresh && existsSync(answersFile) && statSync(answersFile).size > 0;
  const before = hasAnswers ? readManifest(dir) : undefined;

  if (before) {
    const sizes = [before.settings.context_size, fresh.settings.context_size];
    const largest = sizes[0] === sizes[1] ? undefined : largestCallTokens(readAnswerLog(answersFile).records);
    const conflicts = manifestConflicts(before, fresh, largest);
    if (conflicts.length > 0) {
      throw new UserError(
        `${dir} already holds answers made with other settings:\n  ${conflicts.join("\n  ")}\n` +
          `Run again with the same settings to resume, add --fresh to start over, or choose another --out folder.`,
      );
    }
    const reading = checkReading(dir, before, {
      blogqa: fresh.blogqa,
      corpusSha256: fresh.corpus.sha256,
      sectionsSha256: fresh.corpus.sections_sha256!,
    });
    if (reading.kind !== "same") {
      // One line: answers made from two readings would compare prompts that showed the model other text.
      if (!options.acceptNewReading)
        throw new UserError(
          `${reading.line}; answers from two readings would not compare. Add --accept-new-reading to add to them ` +
            "anyway (each session records its reading), --fresh to start over, or choose another --out folder.",
        );
      progress(`note: ${reading.line}; adding to its answers as --accept-new-reading asks`);
    }
    if (largest !== undefined && conflicts.length === 0)
      progress(
        `note: context size ${sizes[0]} before, ${sizes[1]} now: the largest logged call (${largest} tokens, ` +
          `prompt and reply) fits both${sizes[1] === "auto" ? " (auto fits a context that holds it)" : ""}, so the answers stand`,
      );
  } else if (hasAnswers) {
    throw new UserError(
      `${dir} holds answers but no ${MANIFEST_FILE}: nothing records the settings, models and inputs that made them, ` +
        `so new answers cannot be added to them. Add --fresh to start over, or choose another --out folder.`,
    );
  }

  const session = {
    blogqa: fresh.blogqa,
    sections_sha256: fresh.corpus.sections_sha256,
    started_at: fresh.started_at,
    finished_at: null,
    models: [...inputs.selection.models],
    designs: [...inputs.selection.designs],
    limit: inputs.selection.limit ?? null,
    ran: null,
    skipped: null,
  };
  let manifest: RunManifest = before
    ? { ...fresh, started_at: before.started_at, models: before.models, sessions: [...before.sessions, session] }
    : { ...fresh, sessions: [session] };

  return {
    current: () => manifest,
    async recordModel(info) {
      const files = [];
      for (const f of info.files) {
        const digest = await cachedSha256(f.path, options.cacheDir);
        if (!digest.cached) progress(`sha256 of ${f.path}: ${digest.sha256}`);
        files.push({ path: digest.path, bytes: digest.bytes, sha256: digest.sha256 });
      }
      // A model run again without its suite entry (a plain --model run adding questions) keeps the entry it had.
      const kept = info.entry ?? manifest.models.find((m) => m.id === info.id)?.entry;
      const model: ManifestModel = { ...info, files, ...(kept !== undefined ? { entry: kept } : {}) };
      if (before) {
        const conflicts = modelConflicts(before, model);
        if (conflicts.length > 0) {
          throw new UserError(
            `${dir} already holds answers from another model under the same name:\n  ${conflicts.join("\n  ")}\nAdd --fresh to start over, or choose another --out folder.`,
          );
        }
        for (const change of runtimeChanges(before, model))
          progress(`note: ${change} (outputs may differ from the earlier runs)`);
      }
      const models = manifest.models.some((m) => m.id === model.id)
        ? manifest.models.map((m) => (m.id === model.id ? model : m))
        : [...manifest.models, model];
      manifest = { ...manifest, models };
      writeManifestFile(dir, manifest);
    },
    finish(result) {
      const end = now().toISOString();
      const sessions = manifest.sessions.map((s, i) =>
        i === manifest.sessions.length - 1 ? { ...s, finished_at: end, ran: result.ran, skipped: result.skipped } : s,
      );
      manifest = { ...manifest, finished_at: end, sessions };
      writeManifestFile(dir, manifest);
    },
  };
}
