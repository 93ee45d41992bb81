// Fetches a model repository's generation_config.json from the Hugging Face hub once, into the models folder.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../common/index.ts";
import { readGenerationConfig, type GenerationConfigFile, type HubSource } from "./generation-config.ts";
import { writeFileAtomic } from "../common/index.ts";

/** The hub's address: $HF_ENDPOINT (as Hugging Face's own clients read it) or huggingface.co. */
export function hubEndpoint(): string {
  return (process.env.HF_ENDPOINT ?? "https://huggingface.co").replace(/\/+$/, "");
}

/** A repository's file on the hub, at a revision (a commit, or "main"). */
export interface HubFileRequest {
  readonly repo: string;
  /** A commit to pin; undefined: whatever the hub resolves now, recorded on first fetch. */
  readonly revision: string | undefined;
  readonly endpoint?: string;
}

/** `<modelsDir>/Qwen_Qwen2.5-3B-Instruct/`: one folder per source repository, beside the GGUF files. */
export function hubConfigDir(modelsDir: string, repo: string): string {
  return path.join(modelsDir, repo.replace(/\//g, "_"));
}

const CONFIG = "generation_config.json";
/** Written after the config: the repository and the commit it came from. */
const SOURCE = "generation_config.source.json";

/**
 * The repository's generation_config.json, fetched on first use and reused afterwards. A pinned revision must match
 * the cached copy's (else it is fetched again); an unpinned one keeps the commit of the first fetch, which the hub
 * names in its X-Repo-Commit header. A copy placed by hand (no record of its source beside it) is read with no hub
 * source. Offline with nothing cached: one error line naming the file to put in place.
 */
export async function hubGenerationConfig(
  modelsDir: string,
  request: HubFileRequest,
  onProgress?: (m: string) => void,
): Promise<GenerationConfigFile> {
  const dir = hubConfigDir(modelsDir, request.repo);
  const file = path.join(dir, CONFIG);
  const cached = readSource(path.join(dir, SOURCE));
  if (
    cached !== undefined &&
    fs.existsSync(file) &&
    cached.repo === request.repo &&
    (request.revision === undefined || cached.revision === request.revision)
  ) {
    return readGenerationConfig(file, cached);
  }
  // Put in place by hand, as the offline message asks: used as it is, its revision unknown, so none is recorded.
  if (cached === undefined && fs.existsSync(file)) {
    onProgress?.(`using ${file}, placed by hand: its hub revision is not known and is not recorded`);
    return readGenerationConfig(file, null);
  }
  const endpoint = request.endpoint ?? hubEndpoint();
  const url = `${endpoint}/${request.repo}/resolve/${request.revision ?? "main"}/${CONFIG}`;
  const offline =
    `Put the repository's ${CONFIG} at ${file}, or pass --generation-config FILE, or --repetition-penalty none for ` +
    `pure greedy decoding.`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new UserError(`cannot fetch ${url} (${cause}; offline?). ${offline}`);
  }
  if (!response.ok) throw new UserError(`cannot fetch ${url}: HTTP ${response.status}. ${offline}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const revision = request.revision ?? response.headers.get("x-repo-commit") ?? "main";
  const source: HubSource = { repo: request.repo, revision };
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomic(file, bytes);
  writeFileAtomic(path.join(dir, SOURCE), `${JSON.stringify({ ...source, url }, null, 2)}\n`);
  onProgress?.(`fetched ${request.repo}'s ${CONFIG} at ${revision} into ${dir}`);
  return readGenerationConfig(file, source);
}

function readSource(file: string): HubSource | undefined {
  try {
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<HubSource>;
    return typeof json.repo === "string" && typeof json.revision === "string"
      ? { repo: json.repo, revision: json.revision }
      : undefined;
  } catch {
    return undefined;
  }
}
