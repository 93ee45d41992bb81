// Before a study starts: the model and embedding files it needs that are not here, all named in one message when the hub is out of reach.
import { existsSync } from "node:fs";
import path from "node:path";
import { hfLocalFileNames, hubConfigDir, knownFileBytes, modelsDir, originalRepoOf } from "../llm/index.ts";
import { modelFiles, modelSource, probeHub, type EmbeddingDtype, type RetrieverKind } from "../search/index.ts";
import { hubEndpoint, UserError } from "../common/index.ts";

/** Files to put in one folder, and the hub page they come from. */
export interface MissingFiles {
  readonly folder: string;
  readonly from: string;
  readonly files: readonly { readonly name: string; readonly hubName: string; readonly bytes: number | undefined }[];
}

export interface NeededInputs {
  readonly models: readonly string[];
  readonly retriever: RetrieverKind;
  readonly embeddingModel: string;
  readonly embeddingDtype: EmbeddingDtype;
  readonly cacheDir: string;
  /** False when no generation_config.json is needed: --repetition-penalty other than auto, or --generation-config. */
  readonly generationConfigs?: boolean;
}

/**
 * What the study would download: hf: models' files (every split part), the study's models' generation_config.json,
 * and a hub embedding model's files.
 */
export function missingFiles(needed: NeededInputs): MissingFiles[] {
  const missing: MissingFiles[] = [];
  const models = modelsDir(needed.cacheDir);
  for (const id of needed.models) {
    const names = hfLocalFileNames(id);
    if (names === undefined) continue; // a local path: the loader names it if it is absent
    const files = names.localFiles
      .map((name, i) => ({ name, hubName: names.hubFiles[i]!, bytes: knownFileBytes(names.hubFiles[i]!) }))
      .filter((f) => !existsSync(path.join(models, f.name)));
    if (files.length > 0) missing.push({ folder: models, from: `${hubEndpoint()}/${names.repo}`, files });
    // The study's models (and Qwen2.5's other sizes) also decode by their original repository's generation_config.json.
    const original = originalRepoOf(id);
    const configDir = original && hubConfigDir(models, original.repo);
    if (
      needed.generationConfigs !== false &&
      original &&
      configDir &&
      !existsSync(path.join(configDir, "generation_config.json"))
    ) {
      const revision = original.revision ?? "main";
      const config = { name: "generation_config.json", hubName: "generation_config.json", bytes: undefined };
      missing.push({
        folder: configDir,
        from: `${hubEndpoint()}/${original.repo}/blob/${revision}/generation_config.json`,
        files: [config],
      });
    }
  }
  if (needed.retriever !== "bm25" && !existsSync(needed.embeddingModel)) {
    const source = modelSource(needed.embeddingModel);
    if (source.kind === "hub") {
      const folder = path.join(needed.cacheDir, "embedders", source.id);
      const files = modelFiles(needed.embeddingDtype)
        .filter((name) => !existsSync(path.join(folder, name)))
        .map((name) => ({ name, hubName: name, bytes: undefined }));
      if (files.length > 0) missing.push({ folder, from: `${hubEndpoint()}/${source.id}`, files });
    }
  }
  return missing;
}

/**
 * One message for everything missing, with where each file goes and the options of this command that avoid it.
 * Example line: "  hf_Qwen_qwen2.5-1.5b-instruct-fp16.gguf (3,560,416,288 bytes; the hub's qwen2.5-1.5b-instruct-fp16.gguf)".
 */
export function offlineMessage(missing: readonly MissingFiles[], reason: string, hints: readonly string[]): string {
  const lines = [
    `the Hugging Face hub cannot be reached (${reason}) and ${countFiles(missing)} not here. Put them in place and run again:`,
  ];
  for (const group of missing) {
    lines.push(`  into ${group.folder}/ (from ${group.from}):`);
    for (const f of group.files) {
      const size = f.bytes === undefined ? [] : [`${f.bytes.toLocaleString("en-US")} bytes`];
      const renamed = f.name === f.hubName ? [] : [`the hub's ${f.hubName}`];
      const note = [...size, ...renamed];
      lines.push(`    ${f.name}${note.length > 0 ? ` (${note.join("; ")})` : ""}`);
    }
  }
  if (hints.length > 0) lines.push(`Or: ${hints.join("; ")}.`);
  return lines.join("\n");
}

function countFiles(missing: readonly MissingFiles[]): string {
  const n = missing.reduce((sum, g) => sum + g.files.length, 0);
  return n === 1 ? "1 file this run needs is" : `${n} files this run needs are`;
}

/**
 * Throws the one message when files are missing and the hub does not answer; returns when nothing is missing or it
 * does. `modelHint` is the calling command's own way around a missing model (run: --model PATH; experiment: --quant).
 */
export async function checkOfflineInputs(
  needed: NeededInputs,
  modelHint: string,
  hub = `${hubEndpoint()}/`,
): Promise<void> {
  const missing = missingFiles(needed);
  if (missing.length === 0) return;
  const probe = await probeHub(hub);
  if (probe.ok || probe.status !== undefined) return;
  const embedderMissing = missing.some((g) => g.folder.startsWith(path.join(needed.cacheDir, "embedders")));
  const configMissing = missing.some((g) => g.files.some((f) => f.name === "generation_config.json"));
  const hints = [
    ...(missing.some((g) => g.folder.startsWith(modelsDir(needed.cacheDir))) ? [modelHint] : []),
    ...(configMissing
      ? ["--generation-config FILE gives the decoding settings, --repetition-penalty none does without them"]
      : []),
    ...(embedderMissing
      ? [
          "--retriever bm25 needs no embedding model",
          "--embedding-model DIR takes a local model folder (`blogqa make-tiny-embedder --out DIR` writes a " +
            "random-weight one, as smoke uses, for trying the pipeline offline)",
        ]
      : []),
    "--cache-dir DIR reads a cache that holds them",
  ];
  throw new UserError(offlineMessage(missing, probe.reason, hints));
}
