// Runs on the generated test models write gibberish by design: the page and tables.md say so before any figure.
import type { RunManifest } from "../runs/index.ts";

/** general.name of every model blogqa generates: "blogqa random tiny qwen2, seed 1", "blogqa zero-block ...". */
const GENERATED = /^blogqa (random|zero-block) /;

/** The run's models that are blogqa's generated random-weight models, by their GGUF name in the manifest. */
export function randomWeightModels(manifest: RunManifest | null | undefined): string[] {
  return (manifest?.models ?? []).filter((m) => GENERATED.test(m.name ?? "")).map((m) => m.name!);
}

/** One sentence for the top of the page and of tables.md, or undefined for a run on real models. */
export function randomWeightsWarning(manifest: RunManifest | null | undefined): string | undefined {
  const names = randomWeightModels(manifest);
  if (names.length === 0) return undefined;
  const all = names.length === (manifest?.models.length ?? 0);
  return (
    `${all ? "This run used" : "Some of this run's models are"} blogqa's generated models with random weights (${names.join("; ")}): ` +
    "they write gibberish by design, so these figures test the harness, never a model's quality."
  );
}

/** The warning as tables.md, rescore and compare print it above their tables: a markdown quote, or nothing. */
export function randomWeightsLabel(manifest: RunManifest | null | undefined): string[] {
  const warning = randomWeightsWarning(manifest);
  return warning === undefined ? [] : [`> **Random weights.** ${warning}`];
}
