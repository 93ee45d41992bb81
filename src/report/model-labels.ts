// How the tables, charts, comparisons and exports name a run's models: by file or repository name, and where two of
// the run's models share that name, by the shortest end of their paths that tells them apart.
import type { RunManifest } from "../runs/index.ts";

/** A model id's label among one run's models (see modelLabels). */
export type ModelLabel = (id: string) => string;

/** "<id> [<tag>]": one model's runs from one of two run folders that `compare` reads together. */
const TAG = / \[([^\]/\\]+)\]$/;

/** "Qwen2.5-3B-Instruct" for hf:Qwen/Qwen2.5-3B-Instruct-GGUF/...; the file name for a local path. */
function nameOf(id: string): string {
  const tagged = TAG.exec(id);
  if (tagged) return `${nameOf(id.slice(0, tagged.index))} [${tagged[1]}]`;
  const hub = /^hf:[^/]+\/([^/:]+)/.exec(id)?.[1];
  if (hub) return hub.replace(/-GGUF$/i, "");
  return id
    .split(/[\\/]/)
    .at(-1)!
    .replace(/\.gguf$/i, "");
}

/** The id's last `parts` path components as written: "x/model.gguf" for /a/x/model.gguf and 2; the id if it has fewer. */
function trailingPart(id: string, parts: number): string {
  const separators = [...id.matchAll(/[\\/]/g)].map((m) => m.index);
  return parts > separators.length ? id : id.slice(separators[separators.length - parts]! + 1);
}

/**
 * The ends of ids that share a name, all cut at the fewest trailing components that tell every one apart, each with
 * its compare tag kept at the end (ids that share a name share their tag).
 */
function distinguishingEnds(ids: readonly string[]): string[] {
  const split = ids.map((id) => {
    const tagged = TAG.exec(id);
    return tagged ? { path: id.slice(0, tagged.index), tag: tagged[0] } : { path: id, tag: "" };
  });
  const most = Math.max(...split.map((s) => s.path.split(/[\\/]/).length));
  for (let parts = 1; ; parts++) {
    const ends = split.map((s) => trailingPart(s.path, parts) + s.tag);
    if (new Set(ends).size === ends.length || parts >= most) return ends;
  }
}

/**
 * The labels of a run's models, from every id the run holds (in any order, repeats allowed). A name no other id
 * shares is the label it always was, so the tables of runs whose names differ do not change; ids that share one
 * (/a/x/model.gguf and /b/y/model.gguf) are labelled by their path's shortest distinguishing end ("x/model.gguf",
 * "y/model.gguf"). An id not among `ids` gets its name.
 */
export function modelLabels(ids: Iterable<string>): ModelLabel {
  const byName = new Map<string, string[]>();
  for (const id of new Set(ids)) byName.set(nameOf(id), [...(byName.get(nameOf(id)) ?? []), id]);
  const labels = new Map<string, string>();
  for (const [name, group] of byName) {
    const ends = group.length === 1 ? [name] : distinguishingEnds(group);
    for (const [i, id] of group.entries()) labels.set(id, ends[i]!);
  }
  // An end could still equal another model's name (a file named "model.gguf.gguf"): those keep their whole id.
  const counts = new Map<string, number>();
  for (const label of labels.values()) counts.set(label, (counts.get(label) ?? 0) + 1);
  for (const [id, label] of labels) if (counts.get(label)! > 1) labels.set(id, id);
  return (id) => labels.get(id) ?? nameOf(id);
}

/** The labels of one run folder's models: those its manifest records and those its log holds (it may lack a manifest). */
export function runModelLabels(
  manifest: Pick<RunManifest, "models"> | null | undefined,
  records: readonly { readonly model: string }[],
): ModelLabel {
  return modelLabels([...(manifest?.models ?? []).map((m) => m.id), ...records.map((r) => r.model)]);
}
