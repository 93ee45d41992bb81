// Runs on blogqa's generated test models say so before any figure: the random ones write gibberish by design, and
// the trained one follows a written policy; neither says anything about a real model's quality.
import type { RunManifest } from "../runs/index.ts";

/** general.name of the random-weight models blogqa generates: "blogqa random tiny qwen2, seed 1", "blogqa zero-block ...". */
const RANDOM = /^blogqa (random|zero-block) /;
/** general.name of the trained test model: "blogqa trained agent qwen2". */
const TRAINED = /^blogqa trained agent /;

/** What the page, tables.md, rescore and compare say above the figures of a run on generated models. */
export interface TestModelNotice {
  /** The bold lead-in: "Random weights." or "Trained test model." */
  readonly title: string;
  readonly text: string;
  /** A shorter line written across a chart. */
  readonly chartNote: string;
}

function modelsNamed(manifest: RunManifest | null | undefined, pattern: RegExp): string[] {
  return (manifest?.models ?? []).filter((m) => pattern.test(m.name ?? "")).map((m) => m.name!);
}

/** The run's models that are blogqa's generated random-weight models, by their GGUF name in the manifest. */
export function randomWeightModels(manifest: RunManifest | null | undefined): string[] {
  return modelsNamed(manifest, RANDOM);
}

/** The notice for a run on generated models (random weights first: they make every figure meaningless), or undefined. */
export function testModelNotice(manifest: RunManifest | null | undefined): TestModelNotice | undefined {
  const count = manifest?.models.length ?? 0;
  const random = randomWeightModels(manifest);
  if (random.length > 0)
    return {
      title: "Random weights.",
      text:
        `${random.length === count ? "This run used" : "Some of this run's models are"} blogqa's generated models with random weights (${random.join("; ")}): ` +
        "they write gibberish by design, so these figures test the harness, never a model's quality.",
      chartNote: "Random weights: these figures test the harness, never a model's quality",
    };
  const trained = modelsNamed(manifest, TRAINED);
  if (trained.length === 0) return undefined;
  return {
    title: "Trained test model.",
    text:
      `${trained.length === count ? "This run used" : "Some of this run's models are"} blogqa's trained test model (${trained.join("; ")}): ` +
      "a small model trained in this project to follow a written reply policy (docs/trained-model.md), " +
      "so these figures show the harness measuring real behaviour, never a real model's quality.",
    chartNote: "Trained test model: these figures test the harness, never a model's quality",
  };
}

/** The notice as tables.md, rescore and compare print it above their tables: a markdown quote, or nothing. */
export function randomWeightsLabel(manifest: RunManifest | null | undefined): string[] {
  const notice = testModelNotice(manifest);
  return notice === undefined ? [] : [`> **${notice.title}** ${notice.text}`];
}
