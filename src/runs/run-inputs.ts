// Opens a run's inputs, the blog, its questions and its search index, from the run's settings or a folder's manifest:
// the one place the settings that shape them (their SETTING_OPTIONS entries say `input`) are put to use.
import { loadCorpus, loadQuestions, type Corpus, type Question } from "../corpus/index.ts";
import { openIndex, type SearchIndex, type SearchOptions } from "../search/index.ts";
import type { OnTick } from "../common/index.ts";
import type { RunManifest } from "./manifest.ts";
import { defaultSettings, settingsFromFields, type BlogSettings, type IndexSettings } from "./settings.ts";

/**
 * Whose settings the inputs are opened with: a command line's, or those a run folder's manifest records (its blog
 * folder then being the default content); a folder without a manifest (undefined) is read at the defaults.
 */
export type InputsSource<S> = { readonly settings: S } | { readonly manifest: RunManifest | undefined };

/** Where the search index is cached and how its building is reported. */
export interface IndexOpening {
  readonly cacheDir: string;
  readonly onProgress?: ((line: string) => void) | undefined;
  readonly onTick?: OnTick | undefined;
}

export interface RunInputsOptions {
  /** The blog's posts folder; default, with a manifest, the folder it records. */
  readonly content?: string | undefined;
  /** A questions file to read and check against the blog. */
  readonly questions?: string | undefined;
  /** Open the search index over the blog too. */
  readonly index?: IndexOpening | undefined;
  /** The cache folder that keeps parsed posts between commands; default, the index's, where one is opened. */
  readonly cacheDir?: string | undefined;
  /** Told, in one line, which files the blog's folder left out (default: a note on stderr). */
  readonly note?: ((line: string) => void) | undefined;
  /**
   * Called with the blog as soon as it is read, before the questions and the index: where a caller refuses a blog
   * (not the one the run searched), so that the refusal comes before minutes of embedding.
   */
  readonly checkBlog?: ((corpus: Corpus) => void) | undefined;
}

/** The blog, and the questions and the index where asked for. */
export type RunInputs<O extends RunInputsOptions> = { readonly corpus: Corpus } & QuestionsOut<O> & IndexOut<O>;
type QuestionsOut<O> = O extends { readonly questions: string } ? { readonly questions: readonly Question[] } : unknown;
type IndexOut<O> = O extends { readonly index: IndexOpening } ? { readonly index: SearchIndex } : unknown;

/**
 * Reads the blog with the settings that shape it, then the questions (one error naming every bad line) and the
 * search index, each when asked for. Errors are the loaders' own: one line naming the file or folder.
 */
export async function openRunInputs<const O extends RunInputsOptions>(
  source: InputsSource<O extends { readonly index: IndexOpening } ? BlogSettings & IndexSettings : BlogSettings>,
  options: O,
): Promise<RunInputs<O>> {
  const settings: BlogSettings & Partial<IndexSettings> =
    "settings" in source
      ? source.settings
      : source.manifest === undefined
        ? defaultSettings()
        : settingsFromFields(source.manifest.settings);
  const content = options.content ?? ("manifest" in source ? source.manifest?.corpus.dir : undefined);
  if (content === undefined) throw new Error("openRunInputs: no blog folder given, and no manifest to take it from");
  const corpus = await loadCorpus(content, {
    splitDepth: settings.splitDepth,
    parseCacheDir: options.cacheDir ?? options.index?.cacheDir,
    ...(options.note !== undefined ? { note: options.note } : {}),
  });
  options.checkBlog?.(corpus);
  const questions = options.questions === undefined ? undefined : await loadQuestions(options.questions, corpus);
  const index =
    options.index === undefined
      ? undefined
      : await openIndex(corpus, runSearchOptions(settings as IndexSettings, options.index));
  return {
    corpus,
    ...(questions !== undefined ? { questions } : {}),
    ...(index !== undefined ? { index } : {}),
  } as RunInputs<O>;
}

/** The search options a run's settings give: what openRunInputs opens its index with, and search-eval each of its. */
export function runSearchOptions(settings: IndexSettings, opening: IndexOpening): SearchOptions {
  return {
    retriever: settings.retriever,
    embeddingModel: settings.embeddingModel,
    dtype: settings.embeddingDtype,
    cacheDir: opening.cacheDir,
    ...(opening.onProgress !== undefined ? { onProgress: opening.onProgress } : {}),
    ...(opening.onTick !== undefined ? { onTick: opening.onTick } : {}),
  };
}
