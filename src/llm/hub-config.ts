// Fetches a model repository's small config files (generation_config.json, tokenizer_config.json) from the Hugging
// Face hub once, into the models folder, each with a record of the commit it came from.
import fs from "node:fs";
import path from "node:path";
import { hubEndpoint, hubHeaders, UserError } from "../common/index.ts";
import { readGenerationConfig, type GenerationConfigFile, type HubSource } from "./generation-config.ts";
import { writeFileAtomic } from "../common/index.ts";
import { commitInPath } from "./hub-download.ts";

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
  const fetched = await fetchSmallHubFile(url, offline);
  // A pinned request records its pin; else the commit the hub named (on its redirect, or in the resolve-cache URL
  // it redirected to); a hub or mirror that names none leaves it "unknown", never the branch asked for.
  const revision = request.revision ?? fetched.commit ?? UNKNOWN_REVISION;
  const source: HubSource = { repo: request.repo, revision };
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomic(file, fetched.bytes);
  writeFileAtomic(sourceFile, `${JSON.stringify({ ...source, url }, null, 2)}\n`);
  onProgress?.(
    revision === UNKNOWN_REVISION
      ? `fetched ${request.repo}'s ${name} into ${dir}; the hub named no commit, so its revision is recorded as unknown`
      : `fetched ${request.repo}'s ${name} at ${revision} into ${dir}`,
  );
  return { path: file, hub: source };
}

/** The revision recorded for a file fetched from a branch when the hub named no commit. */
export const UNKNOWN_REVISION = "unknown";

/**
 * A small file's bytes and the commit the hub named. The hub answers a small file with a 307 to a relative
 * /api/resolve-cache/ URL carrying X-Repo-Commit, so redirects are followed by hand to keep that header; the token
 * goes to the hub's own origin only. Errors name the URL (never a query string) and the status, never the token.
 */
async function fetchSmallHubFile(url: string, offline: string): Promise<{ bytes: Buffer; commit: string | undefined }> {
  const origin = new URL(url).origin;
  let at = url;
  let commit: string | undefined;
  for (let hop = 0; hop < 5; hop++) {
    let response: Response;
    try {
      const headers = new URL(at).origin === origin ? hubHeaders() : {};
      response = await fetch(at, { headers, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new UserError(`cannot fetch ${url} (${cause}; offline?). ${offline}`);
    }
    commit ??= response.headers.get("x-repo-commit") ?? commitInPath(at);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      at = new URL(location, at).href;
      continue;
    }
    if (!response.ok) {
      const code = response.headers.get("x-error-code");
      throw new UserError(`cannot fetch ${url}: HTTP ${response.status}${code ? ` ${code}` : ""}. ${offline}`);
    }
    return { bytes: Buffer.from(await response.arrayBuffer()), commit };
  }
  throw new UserError(`cannot fetch ${url}: redirected more than 5 times. ${offline}`);
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
