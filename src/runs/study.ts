// A study as one library call: read the blog and questions, open the search, check the folder and the models, and
// answer every pending (model, design, question) into the run folder. run, experiment and smoke are this call with
// their own options; tables and the report are the later stages'.
import { questionShapeWarning, type Corpus, type Question } from "../corpus/index.ts";
import type { SearchIndex } from "../search/index.ts";
import { checkModel } from "../llm/index.ts";
import { checkWritableFolder, type OnTick } from "../common/index.ts";
import type { DesignId, Wording } from "../designs/index.ts";
import { checkOfflineInputs } from "./offline-check.ts";
import { modelOpener } from "./open-model.ts";
import { contextFloor } from "./context-floor.ts";
import { modelBytesBeforeLoading } from "./run-timer.ts";
import { openRunFolder } from "./run-folder.ts";
import { openRunInputs } from "./run-inputs.ts";
import { runStudy, type StudyRunSummary } from "./runner.ts";
import { samplingChoice } from "./sampling.ts";
import type { ModelEntry, RunSettings } from "./settings.ts";

/** Which runs a study makes. */
export interface StudySelection {
  /** Model ids as loadModel (or the server) knows them. */
  readonly models: readonly string[];
  readonly designs: readonly DesignId[];
  /** --wordings: every design runs under each; undefined: the study's alone. */
  readonly wordings?: readonly Wording[] | undefined;
  /** Only the first N questions. */
  readonly limit?: number | undefined;
  /** The suite's or --models file's entries, one per model (labels, sizes, each model's own settings). */
  readonly entries?: readonly ModelEntry[] | undefined;
}

export interface StudyOptions {
  readonly settings: RunSettings;
  readonly selection: StudySelection;
  /** The blog's posts folder and the questions file. */
  readonly content: string;
  readonly questions: string;
  /** The run folder: answers.jsonl, manifest.json and what later stages derive from them. */
  readonly out: string;
  /** Start the folder over once the inputs and the first model check out. */
  readonly fresh?: boolean;
  /** Add to a folder whose answers another blogqa read from the blog otherwise (see manifest-session.ts). */
  readonly acceptNewReading?: boolean;
  /** The files later stages derive from the folder (tables, CSVs, the page), which --fresh removes first. */
  readonly derivedFiles: readonly string[];
  readonly cacheDir: string;
  /** With --server: how long one request may take and how often it is tried again. */
  readonly requests?: { readonly timeoutSeconds: number; readonly retries: number };
  /** The hint an offline check gives for models it cannot find (what else the command could run). */
  readonly modelHint: string;
  readonly onProgress: (line: string) => void;
  readonly onTick?: OnTick;
}

export interface StudyResult {
  readonly summary: StudyRunSummary;
  readonly corpus: Corpus;
}

/**
 * Runs a study into its folder. Everything that can be checked is checked before the first model loads (the folder
 * can be written, the sampling flags mean something, every file the offline run needs is here, the folder's earlier
 * answers came from these settings, each model's files and metadata), so that a run that cannot finish stops early
 * and, with --fresh, removes nothing.
 */
export async function runStudyFolder(options: StudyOptions): Promise<StudyResult> {
  const { settings, selection, cacheDir, onProgress: progress } = options;
  checkWritableFolder(options.out, "--out"); // a run that cannot log its first answer would be wasted
  samplingChoice(settings);
  const served = settings.server !== undefined;
  // Offline, everything missing is named at once, before minutes of work that would stop at the first of them. A
  // served model's files are the server's business; only its generation config may be fetched here.
  await checkOfflineInputs(
    {
      models: served ? [] : selection.models,
      retriever: settings.retriever,
      embeddingModel: settings.embeddingModel,
      embeddingDtype: settings.embeddingDtype,
      cacheDir,
      generationConfigs: settings.repetitionPenalty === "auto" && settings.generationConfig === undefined,
    },
    options.modelHint,
  );
  const { corpus, questions, index } = await prepareStudy(settings, options);
  const folder = openRunFolder(options.out, {
    inputs: {
      settings,
      selection: { models: selection.models, designs: selection.designs, limit: selection.limit },
      questionsFile: options.questions,
      corpus,
      questionCount: questions.length,
      embedding: index.embedding,
      ...(selection.wordings !== undefined ? { wordings: selection.wordings } : {}),
    },
    fresh: options.fresh ?? false,
    acceptNewReading: options.acceptNewReading ?? false,
    derivedFiles: options.derivedFiles,
    cacheDir,
    onProgress: progress,
  });
  try {
    if (!served)
      for (const id of selection.models)
        await checkModel(id, { cacheDir, chatTemplate: settings.chatTemplate, onProgress: progress });
    const entryOf = new Map((selection.entries ?? []).map((e) => [e.model, e]));
    const summary = await runStudy({
      folder,
      models: selection.models,
      designs: selection.designs,
      ...(selection.wordings !== undefined ? { wordings: selection.wordings } : {}),
      questions,
      openModel: modelOpener(settings, {
        cacheDir,
        contextFloor: contextFloor(settings.maxNewTokens, folder.largestLoggedCall),
        ...(options.requests !== undefined ? { requests: options.requests } : {}),
        onProgress: progress,
        ...(options.onTick !== undefined ? { onTick: options.onTick } : {}),
      }),
      entryOf: (id) => entryOf.get(id),
      ...(served ? {} : { modelBytes: modelBytesBeforeLoading }),
      index,
      settings,
      fresh: options.fresh ?? false,
      onProgress: progress,
      ...(options.onTick !== undefined ? { onTick: options.onTick } : {}),
    });
    folder.finish(summary);
    return { summary, corpus };
  } finally {
    folder.close();
  }
}

/** What a study reads: the blog, its questions (the first --limit of them) and the search over the blog. */
async function prepareStudy(
  settings: RunSettings,
  o: Pick<StudyOptions, "content" | "questions" | "selection" | "cacheDir" | "onProgress" | "onTick">,
): Promise<{ corpus: Corpus; questions: readonly Question[]; index: SearchIndex }> {
  const progress = o.onProgress;
  const {
    corpus,
    questions: all,
    index,
  } = await openRunInputs(
    { settings },
    {
      content: o.content,
      questions: o.questions,
      index: { cacheDir: o.cacheDir, onProgress: progress, onTick: o.onTick },
    },
  );
  const limit = o.selection.limit;
  const questions = limit === undefined ? all : all.slice(0, limit);
  // Said of the file as written: --limit cuts any shape short, and that is the user's doing.
  const shape = questionShapeWarning(all);
  if (shape !== undefined) progress(shape);
  progress(
    `${corpus.posts.length} posts, ${corpus.sections.length} sections, ${questions.length} questions, ${settings.retriever} search`,
  );
  return { corpus, questions, index };
}
