// Fetches a model repository's small config files (generation_config.json, tokenizer_config.json) from the Hugging
// Face hub once, into the models folder, each with a record of the commit it came from.
import fs from "node:fs";
import path from "node:path";
import { hubEndpoint, hubHeaders, UserError } from "../common/index.ts";
import { readGenerationConfig, type GenerationConfigFile, type HubSource } from "./generation-config.ts";
import { writeFileAtomic } from "../common/index.ts";

/** A repository's file on the hub, at a revision (a commit, or "main"). */
export interface HubFileRequest {
  readonly repo: string;
  /** A commit to pin; undefined: whatever the hub resolves now, recorded on first fetch. */
  readonly revision: string | undefined;
  readonly endpoint?: string;
}

/** A hub file in the cache: its path, and the commit it came from (null: placed there by hand). */
export interface CachedHubFile {
  readonly path: string;
  readonly hub: HubSource | null;
}

/** `<modelsDir>/Qwen_Qwen2.5-3B-Instruct/`: one folder per source repository, beside the GGUF files. */
export function hubConfigDir(modelsDir: string, repo: string): string {
  return path.join(modelsDir, repo.replace(/\//g, "_"));
}

const GENERATION_CONFIG = "generation_config.json";
/** Fetched beside it by special-tokens' caller (resolve-decoding.ts); named here for the offline message. */
const TOKENIZER_CONFIG_NAME = "tokenizer_config.json";

/**
 * The repository's generation_config.json, fetched on first use and reused afterwards (see hubFile). Offline with
 * nothing cached: one error line naming the file to put in place and the options that do without it.
 */
export async function hubGenerationConfig(
  modelsDir: string,
  request: HubFileRequest,
  onProgress?: (m: string) => void,
): Promise<GenerationConfigFile> {
  const file = path.join(hubConfigDir(modelsDir, request.repo), GENERATION_CONFIG);
  const offline =
    `Put the repository's ${GENERATION_CONFIG} at ${file}, or pass --generation-config FILE, or ` +
    `--repetition-penalty none for pure greedy decoding. (${TOKENIZER_CONFIG_NAME} beside it is optional: without ` +
    "it replies leave out llama.cpp's control tokens rather than the repository's special tokens, and the run says so.)";
  const cached = await hubFile(modelsDir, request, GENERATION_CONFIG, offline, onProgress);
  return readGenerationConfig(cached.path, cached.hub);
}

/**
 * One file of the repository, fetched on first use and reused afterwards. A pinned revision must match the cached
 * copy's (else it is fetched again); an unpinned one keeps the commit of the first fetch, which the hub names in its
 * X-Repo-Commit header. A copy placed by hand (no record of its source beside it) is used with no hub source.
 * Offline with nothing cached: a UserError, its message ending with `offline`.
 */
export async function hubFile(
  modelsDir: string,
  request: HubFileRequest,
  name: string,
  offline: string,
  onProgress?: (m: string) => void,
): Promise<CachedHubFile> {
  const dir = hubConfigDir(modelsDir, request.repo);
  const file = path.join(dir, name);
  // Written after the file: the repository and the commit it came from.
  const sourceFile = path.join(dir, name.replace(/\.json$/, ".source.json"));
  const cached = readSource(sourceFile);
  if (
    cached !== undefined &&
    fs.existsSync(file) &&
    cached.repo === request.repo &&
    (request.revision === undefined || cached.revision === request.revision)
  ) {
    return { path: file, hub: cached };
  }
  // Put in place by hand, as the offline message asks: used as it is, its revision unknown, so none is recorded.
  if (cached === undefined && fs.existsSync(file)) {
    onProgress?.(`using ${file}, placed by hand: its hub revision is not known and is not recorded`);
    return { path: file, hub: null };
  }
  const endpoint = request.endpoint ?? hubEndpoint();
  const url = `${endpoint}/${request.repo}/resolve/${request.revision ?? "main"}/${name}`;
  let response: Response;
  try {
    // A gated repository needs the user's token (never printed: errors name the URL and the status only).
    response = await fetch(url, { headers: hubHeaders(), signal: AbortSignal.timeout(30_000) });
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
  writeFileAtomic(sourceFile, `${JSON.stringify({ ...source, url }, null, 2)}\n`);
  onProgress?.(`fetched ${request.repo}'s ${name} at ${revision} into ${dir}`);
  return { path: file, hub: source };
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
