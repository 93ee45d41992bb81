// A stand-in for the Hugging Face hub and its CDN on 127.0.0.1, answering as the real ones do: a large (LFS) file's
// /resolve is a 302 to a signed URL on the CDN (another port) with X-Linked-Size, X-Linked-Etag and X-Repo-Commit on
// the 302; a small file's is a 307 to a relative /api/resolve-cache/ URL; 401 RepoNotFound / GatedRepo, 404
// EntryNotFound, 429 with Retry-After; signed URLs that expire after a number of requests; Range requests; a
// connection cut mid-body. Every request is counted, and every body byte the CDN sends.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHash, randomBytes } from "node:crypto";

export interface HubFile {
  readonly repo: string;
  /** A 40-hex commit, or "main" (then the stand-in names STAND_IN_COMMIT). Served at "main" too. */
  readonly revision: string;
  /** The file's path in the repository. */
  readonly file: string;
  readonly bytes: Buffer;
  /** Stored with LFS (a 302 to the CDN); default: .gguf, .onnx, .safetensors and .bin files. */
  readonly lfs?: boolean;
}

export interface StandInHubOptions {
  /** Repositories that need HF_TOKEN's value `token` (401 GatedRepo without it). */
  readonly gated?: { readonly repos: readonly string[]; readonly token: string };
  /** A signed URL answers this many requests, then 403 (expired); default: never expires. */
  readonly signedUrlUses?: number;
  /** The first `count` /resolve requests (of `file` alone, if given) answer 429 with `Retry-After: seconds`. */
  readonly rateLimit?: { readonly count: number; readonly seconds: number; readonly file?: string };
  /** Answer as a plain mirror does: no X-Repo-Commit anywhere, and a small file served at /resolve itself. */
  readonly plainMirror?: boolean;
}

export interface CdnRequest {
  readonly file: string;
  readonly range: string | undefined;
  readonly status: number;
  /** Whether the request carried an Authorization header (the hub's token must never reach the CDN). */
  readonly authorized: boolean;
}

export interface StandInHub {
  /** The hub's address, for HF_ENDPOINT. */
  readonly url: string;
  /** The CDN's address (another port). */
  readonly cdnUrl: string;
  /** Every hub request as "METHOD path[ range]" (no query), in order. */
  readonly requests: string[];
  /** Every CDN request, in order. */
  readonly cdnRequests: CdnRequest[];
  /** Body bytes the CDN has sent, per repository file path ("<repo>/<file>"). */
  readonly cdnBytes: Map<string, number>;
  /**
   * Cuts the CDN's connections for `file` ("<repo>/<file>") once it has sent `afterBytes` more bytes of it: the
   * response under way is dropped mid-body; with `stayDown`, every later CDN request for it too, until heal().
   */
  cut(file: string, afterBytes: number, options?: { stayDown?: boolean }): void;
  heal(): void;
  close(): Promise<void>;
}

/** The commit the stand-in names for a file served at "main". */
export const STAND_IN_COMMIT = "5".repeat(40);

const isCommit = (s: string) => /^[0-9a-f]{40}$/.test(s);
const commitOf = (f: HubFile) => (isCommit(f.revision) ? f.revision : STAND_IN_COMMIT);
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const isLfs = (f: HubFile) => f.lfs ?? /\.(gguf|onnx|safetensors|bin)$/.test(f.file);
/** The hub's git blob id of a small file (what its ETag carries). */
const gitSha1 = (b: Buffer) =>
  createHash("sha1")
    .update(Buffer.concat([Buffer.from(`blob ${b.length}\0`), b]))
    .digest("hex");

export async function startStandInHub(files: readonly HubFile[], options: StandInHubOptions = {}): Promise<StandInHub> {
  const requests: string[] = [];
  const cdnRequests: CdnRequest[] = [];
  const cdnBytes = new Map<string, number>();
  const repos = new Set(files.map((f) => f.repo));
  const signed = new Map<string, { file: HubFile; uses: number }>();
  let rateLimited = options.rateLimit?.count ?? 0;
  let cutPlan: { key: string; budget: number; stayDown: boolean; tripped: boolean } | undefined;
  const keyOf = (f: HubFile) => `${f.repo}/${f.file}`;
  const commitHeader = (f: HubFile) => (options.plainMirror ? {} : { "x-repo-commit": commitOf(f) });

  function find(repo: string, revision: string, file: string): HubFile | undefined {
    return files.find((f) => f.repo === repo && f.file === file && (revision === "main" || revision === commitOf(f)));
  }

  /** 401 for a gated repository without the right token; undefined when the request may go on. */
  function refused(repo: string, req: http.IncomingMessage): string | undefined {
    if (!options.gated?.repos.includes(repo)) return undefined;
    return req.headers.authorization === `Bearer ${options.gated.token}` ? undefined : "GatedRepo";
  }

  function sendError(res: http.ServerResponse, status: number, code: string, headers: Record<string, string> = {}) {
    res.writeHead(status, { "x-error-code": code, "content-type": "text/plain", ...headers }).end(code);
  }

  /** Writes `body` in 64 kB slices, counting each, and cuts the connection when the cut's budget runs out. */
  function sendBody(res: http.ServerResponse, key: string, body: Buffer): void {
    let offset = 0;
    const step = () => {
      while (offset < body.length) {
        if (cutPlan?.key === key && cutPlan.tripped) return void res.destroy();
        let n = Math.min(65_536, body.length - offset);
        if (cutPlan?.key === key) {
          n = Math.min(n, cutPlan.budget);
          cutPlan.budget -= n;
          if (n === 0) {
            if (cutPlan.stayDown) cutPlan.tripped = true;
            else cutPlan = undefined;
            return void res.destroy();
          }
        }
        const slice = body.subarray(offset, offset + n);
        offset += n;
        cdnBytes.set(key, (cdnBytes.get(key) ?? 0) + n);
        if (!res.write(slice)) return void res.once("drain", step);
      }
      res.end();
    };
    step();
  }

  /** The answer to a GET or HEAD of a whole file or a byte range of it. */
  function serveBytes(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    file: HubFile,
    headers: Record<string, string>,
    onBody: (body: Buffer) => void,
  ): number {
    const match = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    const start = match ? Number(match[1]) : 0;
    const end = match && match[2] !== "" ? Math.min(Number(match[2]), file.bytes.length - 1) : file.bytes.length - 1;
    const body = file.bytes.subarray(start, end + 1);
    const status = match ? 206 : 200;
    res.writeHead(status, {
      ...headers,
      "accept-ranges": "bytes",
      "content-type": "application/octet-stream",
      "content-length": String(body.length),
      ...(match ? { "content-range": `bytes ${start}-${end}/${file.bytes.length}` } : {}),
    });
    if (req.method === "HEAD") res.end();
    else onBody(body);
    return status;
  }

  const hub = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://hub");
    const range = req.headers.range;
    requests.push(`${req.method} ${url.pathname}${range !== undefined ? ` ${range}` : ""}`);
    if (url.pathname === "/") return void res.writeHead(200).end();
    const cached = /^\/api\/resolve-cache\/models\/([^/]+\/[^/]+)\/([0-9a-f]{40})\/(.+)$/.exec(url.pathname);
    if (cached !== null) {
      const [, repo, commit, name] = cached as unknown as [string, string, string, string];
      const gate = refused(repo, req);
      if (gate !== undefined) return sendError(res, 401, gate);
      const file = find(repo, commit, name);
      if (file === undefined || isLfs(file)) return sendError(res, 404, "EntryNotFound");
      serveBytes(req, res, file, { etag: `"${gitSha1(file.bytes)}"` }, (body) => res.end(body));
      return;
    }
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (resolve === null) return sendError(res, 404, "EntryNotFound");
    const [, repo, revision, name] = resolve as unknown as [string, string, string, string];
    if (rateLimited > 0 && (options.rateLimit?.file === undefined || options.rateLimit.file === name)) {
      rateLimited--;
      return sendError(res, 429, "RateLimited", { "retry-after": String(options.rateLimit?.seconds ?? 1) });
    }
    if (!repos.has(repo)) return sendError(res, 401, "RepoNotFound");
    const gate = refused(repo, req);
    if (gate !== undefined) return sendError(res, 401, gate);
    const file = find(repo, revision, name);
    if (file === undefined) return sendError(res, 404, "EntryNotFound");
    if (isLfs(file)) {
      const signature = randomBytes(16).toString("hex");
      signed.set(signature, { file, uses: 0 });
      const location = `${cdnUrl}/repos/${encodeURIComponent(keyOf(file))}?Expires=9999999999&Signature=${signature}&Key-Pair-Id=K1`;
      res.writeHead(302, {
        location,
        ...commitHeader(file),
        "x-linked-size": String(file.bytes.length),
        "x-linked-etag": `"${sha256(file.bytes)}"`,
        etag: `"${sha256(file.bytes)}"`,
      });
      return void res.end();
    }
    if (options.plainMirror) return void serveBytes(req, res, file, {}, (body) => res.end(body));
    const location = `/api/resolve-cache/models/${repo}/${commitOf(file)}/${name}?etag=${gitSha1(file.bytes)}`;
    res.writeHead(307, { location, ...commitHeader(file), etag: `"${gitSha1(file.bytes)}"` }).end();
  });

  const cdn = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://cdn");
    const grant = signed.get(url.searchParams.get("Signature") ?? "");
    const key = decodeURIComponent(url.pathname.replace(/^\/repos\//, ""));
    const log = (status: number) =>
      cdnRequests.push({
        file: key,
        range: req.headers.range,
        status,
        authorized: req.headers.authorization !== undefined,
      });
    if (grant === undefined || keyOf(grant.file) !== key) {
      log(403);
      return void res.writeHead(403, { "content-type": "application/xml" }).end("<Error>AccessDenied</Error>");
    }
    grant.uses++;
    if (options.signedUrlUses !== undefined && grant.uses > options.signedUrlUses) {
      log(403);
      return void res.writeHead(403, { "content-type": "application/xml" }).end("<Error>Request has expired</Error>");
    }
    if (cutPlan?.key === key && cutPlan.tripped) {
      log(0);
      return void req.socket.destroy();
    }
    log(
      serveBytes(req, res, grant.file, { etag: `"${sha256(grant.file.bytes)}"` }, (body) => sendBody(res, key, body)),
    );
  });

  const listen = async (server: http.Server) => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const hubUrl = await listen(hub);
  const cdnUrl = await listen(cdn);
  const closeServer = (server: http.Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: hubUrl,
    cdnUrl,
    requests,
    cdnRequests,
    cdnBytes,
    cut(file, afterBytes, { stayDown = false } = {}) {
      cutPlan = { key: file, budget: afterBytes, stayDown, tripped: false };
    },
    heal() {
      cutPlan = undefined;
    },
    close: async () => {
      await closeServer(hub);
      await closeServer(cdn);
    },
  };
}
