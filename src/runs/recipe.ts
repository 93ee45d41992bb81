// How one model's runs are made, from the run's settings and the model's entry alone. The runner, `audit` and
// `export-prompts` all take this recipe, so a new run setting changes this file and none of those three.
import type { ChatRuntime, LoadedModel, SamplingValues } from "../llm/index.ts";
import { UserError } from "../common/index.ts";
import {
  isEngineered,
  modelThinking,
  runDesign,
  withheldIndex,
  type BlogIndex,
  type DesignId,
  type Transcript,
  type Wording,
} from "../designs/index.ts";
import { modelDialect, type ToolDialect } from "../toolcalls/index.ts";
import type { RunIdentity } from "./answer-log.ts";
import { modelSampling, runSeed, samplingChoice, withMaxTokens, withSampling } from "./sampling.ts";
import {
  settingsForModel,
  type ModelEntry,
  type ModelEntryFields,
  type RunSettings,
  type SettingsFor,
} from "./settings.ts";

/**
 * The settings that shape how a model's runs are made: those tagged "recipe" in SETTING_OPTIONS (the others shape
 * the index and the model it is given). All but the token cap may be left out, and read as their defaults.
 */
export type RecipeSettings = Pick<RunSettings, "maxNewTokens"> & Partial<SettingsFor<"recipe">>;

/** What one run is: a design on a question (its text and gold posts and headings), under a wording. */
export interface RecipeRun {
  readonly design: DesignId;
  readonly wording: Wording;
  readonly question: string;
  readonly gold: { readonly posts: readonly string[]; readonly headings: readonly string[] };
}

export interface RunRecipe {
  /** The model's tool-call format: its entry's own, else the run's --tool-format, else detected from its template. */
  readonly dialect: ToolDialect;
  /** The values the runs sample with; undefined when they decode greedily. */
  readonly sampling: SamplingValues | undefined;
  /** What a person is told of this model's runs: its format and why, its thinking switch, its sampling. */
  readonly notes: readonly string[];
  /** The seed a run samples with (from --seed and the run's identity); undefined when the runs are greedy. */
  seedOf(run: RunIdentity): number | undefined;
  /** The runtime a run's calls go to: the run's max new tokens, the thinking switch, and its seed where it samples. */
  runtime(base: ChatRuntime, seed: number | undefined): ChatRuntime;
  /** One run on `runtime` (from `runtime()`), searching what --withhold leaves its question. */
  run(run: RecipeRun, runtime: ChatRuntime): Promise<Transcript>;
}

/**
 * The recipe of `loaded`'s runs. The designs to be run are checked here, before any run: an engineered design that
 * cannot run in the model's format stops the model at once, not after the study's designs ran.
 */
export function runRecipe(
  loaded: Pick<LoadedModel, "template" | "info">,
  options: {
    readonly settings: RecipeSettings;
    /** The suite's, --models file's or manifest's entry of the model, where it has one. */
    readonly entry?: Pick<ModelEntry, "id" | "toolFormat"> | undefined;
    readonly designs: readonly DesignId[];
    /** The index the runs search; a recipe without one renders prompts (export-prompts) but cannot run. */
    readonly index?: BlogIndex;
  },
): RunRecipe {
  const { settings, entry } = options;
  const own = settingsForModel(settings, entry);
  const choice =
    entry?.toolFormat !== undefined
      ? { said: `"tool_format": "${entry.toolFormat}" of ${entry.id} in --models`, drop: "that tool_format" }
      : undefined;
  const { dialect, reason } = modelDialect(loaded, own.toolFormat ?? "auto", choice);
  const engineered = options.designs.find(isEngineered);
  if (engineered !== undefined && dialect.format !== "hermes") throw engineeredNeedsHermes(engineered, dialect);
  const thinking = modelThinking(loaded, own.thinking ?? false);
  const seed = settings.seed ?? 0;
  const sampling = modelSampling(
    samplingChoice({
      samples: settings.samples ?? 1,
      seed,
      sampling: settings.sampling ?? "auto",
      temperature: settings.temperature,
      topP: settings.topP,
      topK: settings.topK,
    }),
    loaded.info.decoding,
  );
  const notes = [
    `tool-call format ${dialect.format} (${choice !== undefined ? "the model's own tool_format" : reason})`,
    ...(thinking.note !== undefined ? [thinking.note] : []),
    ...(sampling !== undefined
      ? [
          `sampling at temperature ${sampling.temperature}, top_k ${sampling.topK}, top_p ${sampling.topP} (${sampling.note}), seeds from --seed ${seed}`,
        ]
      : []),
  ];
  const withhold = settings.withhold ?? "none";
  return {
    dialect,
    sampling,
    notes,
    seedOf: (run) => (sampling === undefined ? undefined : runSeed(seed, run)),
    runtime(base, runSeedValue) {
      const capped = thinking.wrap(withMaxTokens(base, settings.maxNewTokens));
      return sampling === undefined || runSeedValue === undefined
        ? capped
        : withSampling(capped, sampling, runSeedValue);
    },
    run(run, runtime) {
      if (options.index === undefined) throw new Error("runRecipe: a recipe made without an index cannot run");
      return runDesign(run.design, {
        question: run.question,
        runtime,
        wording: run.wording,
        index: withheldIndex(options.index, run.gold, withhold),
        dialect,
        thinks: thinking.thinks,
      });
    },
  };
}

/** The engineered designs validate and constrain the study's own call format: on another they would judge wrongly. */
function engineeredNeedsHermes(design: string, dialect: ToolDialect): UserError {
  if (dialect.format === "openai-chat")
    return new UserError(
      `The design ${design} validates or constrains calls blogqa parses itself, and in --server-mode chat the ` +
        "server parses them: run the study's designs, or use --server-mode completions.",
    );
  return new UserError(
    `The design ${design} works on the hermes tool-call format only, and this model's is ${dialect.format}: ` +
      "run the study's designs on it, or pass --tool-format hermes if its template really is Hermes-style.",
  );
}

/** The entry a manifest records for a model, as a recipe takes it (undefined for a model run without one). */
export function recordedEntry(
  recorded: { readonly entry?: ModelEntryFields | undefined } | undefined,
): Pick<ModelEntry, "id" | "toolFormat"> | undefined {
  const entry = recorded?.entry;
  if (entry === undefined) return undefined;
  return { id: entry.id, ...(entry.tool_format !== null ? { toolFormat: entry.tool_format } : {}) };
}
