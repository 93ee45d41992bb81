// One file of a hub repository into the models folder: resolved at the hub, fetched by ipull from where the hub
// redirects, resumed from the bytes already on disk after a refused URL or a cut connection (a fresh /resolve each
// time), retried a bounded number of times, one line each, and checked against the hub's size and sha256 before use.
import fs from "node:fs";
import { sha256File, UserError } from "../common/index.ts";

/** ipull, loaded on the first download (it brings its own progress display and colours: not wanted before). */
let ipull: typeof import("ipull") | undefined;

/** What the hub said about a file: where to fetch it, with which headers, its size, sha256 and commit if given. */
export interface ResolvedFile {
  readonly url: string;
  /** The token goes only to the hub's own origin, never to the CDN a signed URL points at. */
  readonly headers: Readonly<Record<string, string>>;
  readonly size: number;
  /** X-Linked-Etag of an LFS file: its sha256; undefined when the hub gave none. */
  readonly sha256: string | undefined;
  /** X-Repo-Commit; undefined when the hub (or a mirror) sent none. */
  readonly commit: string | undefined;
}

export interface HubFileTarget {
  readonly endpoint: string;
  readonly repo: string;
  /** A commit or a branch. */
  readonly revision: string;
  /** The file's path in the repository. */
  readonly file: string;
  readonly token: string | undefined;
}

/** A failure worth another try (429, 5xx, a network error), with the wait the hub asked for, if any. */
class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** `text` with the query string of every URL in it left out. */
export function withoutQueries(text: string): string {
  return text.replace(/(https?:\/\/[^\s?#"'<>]+)\?[^\s"'<>]*/g, "$1");
}

const MAX_HOPS = 5;

/**
 * Asks the hub where a file is (HEAD, redirects followed by hand so the 302's X-Linked-* and X-Repo-Commit headers
 * are read). 401/404 are UserErrors of one line; 429, 5xx and network errors are RetryableErrors.
 */
async function resolveHubFile(target: HubFileTarget): Promise<ResolvedFile> {
  const hubOrigin = new URL(target.endpoint).origin;
  const auth: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {};
  const where = `${target.repo}'s ${target.file} at ${target.revision}`;
  let url = `${target.endpoint}/${target.repo}/resolve/${target.revision}/${target.file}`;
  let size: number | undefined;
  let sha256: string | undefined;
  let commit: string | undefined;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const headers = new URL(url).origin === hubOrigin ? auth : {};
    let response: Response;
    try {
      response = await fetch(url, { method: "HEAD", redirect: "manual", headers, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      const e = error as Error & { cause?: { code?: string } };
      throw new RetryableError(`${new URL(url).host} did not answer (${e.cause?.code ?? e.name})`);
    }
    const h = response.headers;
    size ??= positive(h.get("x-linked-size"));
    sha256 ??= sha256Of(h.get("x-linked-etag"));
    commit ??= h.get("x-repo-commit") ?? undefined;
    const status = response.status;
    if (status >= 300 && status < 400 && h.get("location") !== null) {
      url = new URL(h.get("location")!, url).href;
      // A 302 to the CDN with X-Linked-Size says all: no request to the CDN until the bytes are fetched.
      if (size !== undefined && new URL(url).origin !== hubOrigin)
        return { url, headers: {}, size, sha256, commit: commit ?? commitInPath(url) };
      continue;
    }
    if (status >= 200 && status < 300) {
      const length = size ?? positive(h.get("content-length"));
      if (length === undefined) throw new RetryableError(`the hub gave no size for ${where}`);
      return { url, headers, size: length, sha256, commit: commit ?? commitInPath(url) };
    }
    const code = h.get("x-error-code");
    if (status === 401 && code === "GatedRepo")
      throw new UserError(
        target.token
          ? `${target.repo} is a gated repository and the token in HF_TOKEN has no access: accept its terms at ${target.endpoint}/${target.repo}, then run again`
          : `${target.repo} is a gated repository: accept its terms at ${target.endpoint}/${target.repo} and set HF_TOKEN to a token of that account, then run again`,
      );
    if (status === 401 || status === 403)
      throw new UserError(
        `the hub has no repository ${target.repo} (HTTP ${status}${code ? ` ${code}` : ""}; a private one needs HF_TOKEN)`,
      );
    if (status === 404) throw new UserError(`the hub has no ${where} (HTTP 404${code ? ` ${code}` : ""})`);
    if (status === 429 || status >= 500)
      throw new RetryableError(`the hub answered HTTP ${status} for ${where}`, positive(h.get("retry-after")));
    throw new UserError(`the hub answered HTTP ${status} for ${where}`);
  }
  throw new UserError(`the hub redirected ${where} more than ${MAX_HOPS} times`);
}

function positive(value: string | null): number | undefined {
  const n = Number(value ?? "");
  return value !== null && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** An LFS file's X-Linked-Etag is its sha256 (quoted, perhaps weak); anything else is not a sha256. */
function sha256Of(etag: string | null): string | undefined {
  const value = etag?.replace(/^W\//, "").replace(/"/g, "");
  return value !== undefined && /^[0-9a-f]{64}$/.test(value) ? value : undefined;
}

/** The commit in a small file's /api/resolve-cache/models/<repo>/<commit>/<file> URL. */
export function commitInPath(url: string): string | undefined {
  return /\/api\/resolve-cache\/models\/[^/]+\/[^/]+\/([0-9a-f]{40})\//.exec(new URL(url).pathname)?.[1];
}

export interface DownloadOptions {
  /** A line for a person: a resumption, a retry, the check. */
  readonly onLine?: (message: string) => void;
  /** Bytes on disk of the file so far. */
  readonly onBytes?: (done: number, total: number) => void;
  /** Tries in a row that add no byte before giving up (default 3). */
  readonly maxStalls?: number;
  /** The wait before the n-th try in a row without progress, in ms (default 1 s, 2 s, 4 s ...). */
  readonly backoffMs?: (stall: number) => number;
}

/** Where ipull keeps a download under way: the bytes so far, its progress appended after them. */
export const partialPath = (dest: string) => `${dest}.ipull`;
/** Beside it: what the hub said the file is, so that a partial file of another version is never resumed. */
const expectedPath = (dest: string) => `${dest}.download.json`;

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** The bytes of a file's complete chunks in ipull's saved progress (chunk status 2 is complete). */
function keptBytes(progress: { chunks: number[]; chunkSize: number } | undefined, size: number): number {
  if (progress === undefined) return 0;
  return progress.chunks.reduce(
    (sum, status, i) => sum + (status === 2 ? Math.min(progress.chunkSize, size - i * progress.chunkSize) : 0),
    0,
  );
}

/**
 * Downloads `target` to `dest`. A partial file from an earlier run is resumed; each failure (a CDN's 403 when its
 * signed URL expired, a cut connection, a 429 or 5xx) is one line, then a fresh /resolve and the download goes on
 * from the bytes on disk; `maxStalls` tries in a row that add nothing end it with a UserError, the partial file kept
 * for the next run. The finished file is checked against the hub's size and sha256; a mismatch deletes it.
 */
export async function downloadHubFile(
  target: HubFileTarget,
  dest: string,
  options: DownloadOptions = {},
): Promise<ResolvedFile> {
  ipull ??= await import("ipull");
  holdStrayRejections();
  try {
    return await downloadWithRetries(target, dest, options);
  } finally {
    releaseStrayRejections();
  }
}

async function downloadWithRetries(target: HubFileTarget, dest: string, options: DownloadOptions) {
  const { onLine, onBytes, maxStalls = 3, backoffMs = (n: number) => 1000 * 2 ** (n - 1) } = options;
  const name = target.file;
  let stalls = 0;
  let resolved: ResolvedFile | undefined;
  for (let attempt = 1; ; attempt++) {
    let before = 0;
    let after = 0;
    try {
      resolved = await resolveHubFile(target);
      keepOnlyMatchingPartial(dest, resolved, onLine);
      const downloader = await ipull!.downloadFile({
        url: resolved.url,
        savePath: dest,
        headers: { ...resolved.headers },
        // The hub's 302 gave the size: no request to learn it, and no body started and dropped at the CDN.
        defaultFetchDownloadInfo: { length: resolved.size, acceptRange: true },
        // One range request per 5 MB chunk, 3 at a time; no silent retries: every retry is the loop's, with a line.
        programType: "chunks",
        parallelStreams: 3,
        retry: { retries: 0 },
        cliProgress: false,
      });
      // Progress is counted in whole chunks on disk (what a resumption keeps), not bytes of ranges under way.
      before = keptBytes(downloader.file.downloadProgress, resolved.size);
      after = before;
      if (attempt === 1 && before > 0) onLine?.(`${name}: resuming from ${mb(before)} of ${mb(resolved.size)} on disk`);
      downloader.on("save", (progress) => {
        after = keptBytes(progress, resolved!.size);
      });
      downloader.on("progress", (s) => onBytes?.(s.transferredBytes, s.totalBytes));
      await downloader.download();
      if (fs.existsSync(dest)) break;
      throw new Error("the download ended without its file");
    } catch (error) {
      if (error instanceof UserError) throw error;
      const progressed = after > before;
      stalls = progressed ? 0 : stalls + 1;
      const why = describeFailure(error);
      const at = resolved !== undefined ? ` at ${mb(after)} of ${mb(resolved.size)}` : "";
      if (stalls >= maxStalls)
        throw new UserError(
          `${target.repo}'s ${name}: ${why}${at}, ${stalls} tries in a row with no progress. ` +
            `${fs.existsSync(partialPath(dest)) ? `The partial file ${partialPath(dest)} is kept: run again to resume it.` : ""}`.trim(),
        );
      const wait = progressed
        ? 0
        : Math.max(backoffMs(stalls), 1000 * (error instanceof RetryableError ? (error.retryAfterSeconds ?? 0) : 0));
      onLine?.(
        `${name}: ${why}${at}; ${wait > 0 ? `waiting ${(wait / 1000).toFixed(0)} s, then ` : ""}asking the hub for a fresh URL and resuming (retry ${attempt}${stalls > 0 ? `, ${stalls} of ${maxStalls - 1} without progress` : ""})`,
      );
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }
  await checkDownloaded(dest, resolved!, target, onLine);
  fs.rmSync(expectedPath(dest), { force: true });
  return resolved!;
}

/** Removes a partial file left by a download of another version of the file (the hub's size or sha256 differ). */
function keepOnlyMatchingPartial(dest: string, resolved: ResolvedFile, onLine?: (m: string) => void) {
  const expected = { size: resolved.size, sha256: resolved.sha256 ?? null };
  let earlier: unknown;
  try {
    earlier = JSON.parse(fs.readFileSync(expectedPath(dest), "utf8"));
  } catch {
    earlier = undefined;
  }
  const same =
    typeof earlier === "object" &&
    earlier !== null &&
    (earlier as typeof expected).size === expected.size &&
    (earlier as typeof expected).sha256 === expected.sha256;
  if (!same && earlier !== undefined && fs.existsSync(partialPath(dest))) {
    onLine?.(`${dest}: the hub's file changed since the partial download; starting it again`);
    fs.rmSync(partialPath(dest), { force: true });
  }
  if (!same) fs.writeFileSync(expectedPath(dest), `${JSON.stringify(expected)}\n`);
}

async function checkDownloaded(
  dest: string,
  resolved: ResolvedFile,
  target: HubFileTarget,
  onLine?: (m: string) => void,
) {
  const size = fs.statSync(dest).size;
  const bad = (what: string) => {
    fs.rmSync(dest, { force: true });
    fs.rmSync(expectedPath(dest), { force: true });
    return new UserError(
      `downloaded ${target.repo}'s ${target.file}, but ${what}; deleted it: run again to download it afresh`,
    );
  };
  if (size !== resolved.size) throw bad(`it has ${size} bytes where the hub says ${resolved.size}`);
  if (resolved.sha256 === undefined) {
    onLine?.(`${target.file}: ${mb(size)}, the size the hub gave (it gave no sha256 to check)`);
    return;
  }
  const actual = await sha256File(dest);
  if (actual !== resolved.sha256) throw bad(`its sha256 ${actual} is not the hub's ${resolved.sha256}`);
  onLine?.(`${target.file}: ${mb(size)}, sha256 checked against the hub's`);
}

/** One phrase for why a download stopped, never a URL's query string. */
function describeFailure(error: unknown): string {
  if (ipull !== undefined && error instanceof ipull.StatusCodeError) {
    const host = new URL(error.url).host;
    return error.statusCode === 403
      ? `${host} refused the download URL (HTTP 403, as when a signed URL has expired)`
      : `${host} answered HTTP ${error.statusCode}`;
  }
  if (error instanceof RetryableError) return withoutQueries(error.message);
  const e = error as Error & { cause?: { code?: string; message?: string } };
  const detail = withoutQueries(String(e.cause?.code ?? e.cause?.message ?? e.message));
  const cut = e.name === "TypeError" || /ECONNRESET|UND_ERR|EPIPE|terminated|socket/i.test(detail);
  return cut ? `the connection was cut (${detail})` : `the download failed (${detail})`;
}

/**
 * ipull 3.9.5 runs parallel range requests whose promises it chains with `.then` and no catch
 * (BaseDownloadProgram.download), so every failed range request (an expired URL's 403, a cut) also rejects a
 * promise nobody handles, and an unhandled rejection ends blogqa with a stack holding the signed URL. The first
 * failure reaches the download's own promise, which the loop above handles; while a download runs, and for a while
 * after (the other ranges fail later), the process's unhandledRejection listeners are set aside and these strays
 * dropped; any other rejection goes to them as before (or is thrown, when there are none).
 */
let holders = 0;
let setAside: NodeJS.UnhandledRejectionListener[] = [];

function isStray(reason: unknown): boolean {
  return (
    (ipull !== undefined && reason instanceof ipull.IpullError) ||
    (reason instanceof TypeError && /^(terminated|fetch failed)$/.test(reason.message)) ||
    (reason instanceof Error && reason.name === "AbortError")
  );
}

const dropStrays: NodeJS.UnhandledRejectionListener = (reason, promise) => {
  if (isStray(reason)) return;
  if (setAside.length === 0) throw reason;
  for (const listener of setAside) listener(reason, promise);
};

function holdStrayRejections(): void {
  if (holders++ > 0 || process.listeners("unhandledRejection").includes(dropStrays)) return;
  setAside = process.listeners("unhandledRejection");
  process.removeAllListeners("unhandledRejection");
  process.on("unhandledRejection", dropStrays);
}

/** The ranges still in flight fail within their request timeouts; a minute covers them. */
const STRAY_WINDOW_MS = 60_000;

function releaseStrayRejections(): void {
  holders--;
  setTimeout(() => {
    if (holders > 0 || !process.listeners("unhandledRejection").includes(dropStrays)) return;
    process.off("unhandledRejection", dropStrays);
    for (const listener of setAside) process.on("unhandledRejection", listener);
    setAside = [];
  }, STRAY_WINDOW_MS).unref();
}
