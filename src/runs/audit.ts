// Reruns logged runs one at a time without cache reuse and checks that every reply comes back byte for byte.
// llama.cpp does not promise identical greedy output across batch sizes or KV-cache reuse (on GPUs especially):
// this measures it for a run folder instead of assuming it.
import type { LoadedModel } from "../llm/index.ts";
import type { Corpus } from "../corpus/index.ts";
import { commonPrefixLength, UserError } from "../common/index.ts";
import {
  DEFAULT_WORDING,
  DEFAULT_WORDING_ID,
  type ModelCall,
  type Transcript,
  type Wording,
} from "../designs/index.ts";
import { goldHeadingsOf, goldPostsOf, type AnswerRecord } from "./answer-types.ts";
import { cachedSha256 } from "./file-sha256.ts";
import { blogqaVersion, decodingChange, type RunManifest } from "./manifest.ts";
import { checkReading, readingSha256 } from "./blog-reading.ts";
import { modelOpener } from "./open-model.ts";
import { recordedEntry, runRecipe, type RunRecipe } from "./recipe.ts";
import { openRunInputs } from "./run-inputs.ts";
import { settingsFromFields } from "./settings.ts";

/** Where a rerun first parted from its log: the call (1-based) and both replies. */
export interface TranscriptDifference {
  readonly call: number;
  /** undefined when one transcript has fewer calls than the other. */
  readonly logged: string | undefined;
  readonly rerun: string | undefined;
  /** Offset of the first differing character (the shorter reply's length when one is a prefix of the other). */
  readonly offset: number;
}

export interface AuditedRun {
  readonly design: AnswerRecord["design"];
  readonly question_id: string;
  /** The logged run's wording, where it is not the default. */
  readonly wording?: string;
  /** The logged run's sample, where it is not the first. */
  readonly sample?: number;
  /** undefined: every call's reply was byte-identical. */
  readonly difference: TranscriptDifference | undefined;
}

export interface AuditResult {
  readonly model: string;
  readonly checked: number;
  readonly identical: number;
  readonly runs: readonly AuditedRun[];
}

/**
 * The first call whose reply differs, comparing every call in order; undefined when all match. In chat mode a reply
 * is its text and the calls the server returned beside it (see `written`).
 */
export function firstDifference(logged: Transcript, rerun: Transcript): TranscriptDifference | undefined {
  const calls = Math.max(logged.calls.length, rerun.calls.length);
  for (let i = 0; i < calls; i++) {
    const a = written(logged.calls[i]);
    const b = written(rerun.calls[i]);
    if (a !== b)
      return {
        call: i + 1,
        logged: a,
        rerun: b,
        offset: a === undefined || b === undefined ? 0 : commonPrefixLength(a, b),
      };
  }
  return undefined;
}

/**
 * What the model wrote in one call: its reply, and for a chat-mode call (one that logged the server's answer) each
 * call the server parsed out of it, one per line as {"name", "arguments"}: the ids are left out, as llama-server
 * draws them at random for every answer.
 */
function written(call: ModelCall | undefined): string | undefined {
  if (call === undefined || call.record.response === undefined) return call?.reply;
  const functions = call.toolCalls.map((t) => JSON.stringify((JSON.parse(t.raw) as { function?: unknown }).function));
  return [call.reply, ...functions].join("\n");
}

export interface AuditOptions {
  /** The model's logged runs to check, in log order. */
  readonly runs: readonly AnswerRecord[];
  readonly model: LoadedModel;
  /** How the run made its runs: its settings and the model's entry, as its manifest records them. */
  readonly recipe: RunRecipe;
  /** The run's wordings, from its manifest (default: the study's alone). */
  readonly wordings?: readonly Wording[];
  readonly onProgress?: (line: string) => void;
}

/** Reruns each logged run on one fresh sequence, cache reuse off, and compares every reply with the log. */
export async function auditRuns(options: AuditOptions): Promise<AuditResult> {
  const progress = options.onProgress ?? (() => {});
  const { recipe } = options;
  const [base] = await options.model.openRuntimes(1, { reuseCache: false });
  const runs: AuditedRun[] = [];
  for (const [i, logged] of options.runs.entries()) {
    // A sampled run is rerun with the seed its line logged: the same draws, so the same replies.
    if (logged.seed !== undefined && recipe.sampling === undefined)
      throw new UserError(
        `${logged.design} ${logged.question_id} logged seed ${logged.seed}, but the run's settings decode greedily`,
      );
    const id = logged.wording ?? DEFAULT_WORDING_ID;
    const wording = (options.wordings ?? [DEFAULT_WORDING]).find((w) => w.id === id);
    if (wording === undefined)
      throw new UserError(`${logged.design} ${logged.question_id} ran under wording ${id}, which the manifest lacks`);
    const rerun = await recipe.run(
      {
        design: logged.design,
        wording,
        question: logged.question,
        gold: { posts: goldPostsOf(logged), headings: goldHeadingsOf(logged) },
      },
      recipe.runtime(base!, logged.seed),
    );
    const difference = firstDifference(logged.transcript, rerun);
    const variant = {
      ...(logged.wording !== undefined && logged.wording !== DEFAULT_WORDING_ID ? { wording: logged.wording } : {}),
      ...(logged.sample !== undefined && logged.sample !== 0 ? { sample: logged.sample } : {}),
    };
    runs.push({ design: logged.design, question_id: logged.question_id, ...variant, difference });
    progress(
      `${i + 1}/${options.runs.length} ${logged.design} ${logged.question_id}${variantText(variant)}: ${difference ? `differs at call ${difference.call}` : "identical"}`,
    );
  }
  return {
    model: options.runs[0]?.model ?? "",
    checked: runs.length,
    identical: runs.filter((r) => !r.difference).length,
    runs,
  };
}

export interface AuditFolderOptions {
  readonly dir: string;
  readonly manifest: RunManifest;
  /** The model's logged runs to rerun, in log order (all of one model). */
  readonly runs: readonly AnswerRecord[];
  readonly model: string;
  /** The blog's posts (default: the folder the manifest records); must be the bytes the run searched. */
  readonly content?: string | undefined;
  readonly cacheDir: string;
  readonly onProgress?: (line: string) => void;
}

/**
 * Audits a run folder's logged runs of one model under the run's own settings, from its manifest: the same blog
 * (its sha256 checked), the same search, the same model files (their sha256 checked) and decoding, the same recipe.
 * A run made on a server is rerun on the server its manifest names, with the same timeout and retries.
 */
export async function auditRunFolder(options: AuditFolderOptions): Promise<AuditResult> {
  const { manifest, model } = options;
  const progress = options.onProgress ?? (() => {});
  const { index } = await openRunInputs(
    { manifest },
    {
      content: options.content,
      index: { cacheDir: options.cacheDir, onProgress: progress },
      checkBlog: (corpus) => checkAuditedBlog(options.dir, manifest, corpus, progress),
    },
  );
  const settings = settingsFromFields(manifest.settings);
  const recorded = manifest.models.find((m) => m.id === model);
  const loaded = await modelOpener(settings, {
    cacheDir: options.cacheDir,
    ...(recorded?.server !== undefined
      ? { requests: { timeoutSeconds: recorded.server.timeoutSeconds, retries: recorded.server.retries } }
      : {}),
    onProgress: progress,
  })(model);
  try {
    if (!recorded) throw new UserError(`the manifest records no files for ${model}, so its weights cannot be checked`);
    await checkSameWeights(recorded, loaded.info.files, options.cacheDir);
    // the same setting can decode otherwise: auto reading an edited generation_config.json
    const change = decodingChange(model, recorded.decoding, loaded.info.decoding);
    if (change) throw new UserError(`${change}: a rerun would not decode as the run did`);
    const recipe = runRecipe(loaded, {
      settings,
      entry: recordedEntry(recorded),
      designs: [...new Set(options.runs.map((r) => r.design))],
      index,
    });
    return await auditRuns({
      runs: options.runs,
      model: loaded,
      recipe,
      ...(manifest.wordings !== undefined ? { wordings: manifest.wordings.texts } : {}),
      onProgress: progress,
    });
  } finally {
    await loaded.dispose();
  }
}

/**
 * Refuses a blog whose posts are not the ones the run searched; says where this blogqa reads the same posts into other
 * sections (the audit then measures how far the rerun parts from the log, and this line says why).
 */
function checkAuditedBlog(dir: string, manifest: RunManifest, corpus: Corpus, progress: (line: string) => void): void {
  if (corpus.hash !== manifest.corpus.sha256)
    throw new UserError(
      `${corpus.dir} is not the blog this run searched (sha256 ${corpus.hash}, the run's ${manifest.corpus.sha256}): search results, and so transcripts, would differ`,
    );
  const reading = checkReading(dir, manifest, {
    blogqa: blogqaVersion(),
    corpusSha256: corpus.hash,
    sectionsSha256: readingSha256(corpus.sections),
  });
  if (reading.kind !== "same")
    progress(`audit: note: ${reading.line}; a rerun is shown this blogqa's text, so its transcripts may differ`);
}

/** A rerun on other weights would measure nothing: refuse when the files' sha256 differ from the manifest's. */
async function checkSameWeights(
  recorded: RunManifest["models"][number],
  files: readonly { readonly path: string }[],
  cacheDir: string,
): Promise<void> {
  const now = [];
  for (const f of files) now.push((await cachedSha256(f.path, cacheDir)).sha256);
  const then = recorded.files.map((f) => f.sha256);
  if (JSON.stringify(now) !== JSON.stringify(then))
    throw new UserError(
      `${recorded.id}: the model files' sha256 (${now.join(", ")}) differ from the run's (${then.join(", ")})`,
    );
}

/** The audit as lines for a person: the count, then each differing run with both replies around where they part. */
export function auditText(
  result: AuditResult,
  context: { readonly dir: string; readonly parallel: number; readonly reuseCache: boolean },
): string {
  const lines = [
    `audit of ${result.model} in ${context.dir}: ${result.checked} logged runs rerun one at a time without cache reuse ` +
      `(the run used parallel ${context.parallel}, cache reuse ${context.reuseCache ? "on" : "off"})`,
    `byte-identical transcripts: ${result.identical} of ${result.checked}`,
  ];
  for (const run of result.runs) {
    const d = run.difference;
    if (!d) continue;
    lines.push(
      `differs: ${run.design} ${run.question_id}${variantText(run)}, call ${d.call}, from character ${d.offset}`,
    );
    lines.push(`  logged: ${excerpt(d.logged, d.offset)}`);
    lines.push(`  rerun:  ${excerpt(d.rerun, d.offset)}`);
  }
  return lines.join("\n");
}

/** " wording W sample N" where a run has them, else nothing (as every log before wordings and samples). */
function variantText(run: { readonly wording?: string; readonly sample?: number }): string {
  return `${run.wording !== undefined ? ` wording ${run.wording}` : ""}${run.sample !== undefined ? ` sample ${run.sample}` : ""}`;
}

/** Up to 60 characters either side of the parting point, as a JSON string so that newlines stay on one line. */
function excerpt(reply: string | undefined, offset: number): string {
  if (reply === undefined) return "(no such call)";
  const start = Math.max(0, offset - 60);
  return `${start > 0 ? "..." : ""}${JSON.stringify(reply.slice(start, offset + 60))}${offset + 60 < reply.length ? "..." : ""}`;
}
