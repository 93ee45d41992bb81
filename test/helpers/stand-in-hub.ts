// A stand-in for the Hugging Face hub on 127.0.0.1: /<repo>/resolve/<revision>/<file> with the hub's headers
// (X-Repo-Commit, ETag, Content-Length, Accept-Ranges), HEAD and Range requests, every request counted, and a
// download that can be cut half-way, as a flaky network cuts one.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";

export interface HubFile {
  readonly repo: string;
  readonly revision: string;
  readonly file: string;
  readonly bytes: Buffer;
}

export interface StandInHub {
  /** Its address, for HF_ENDPOINT. */
  readonly url: string;
  /** Every request as "METHOD path[ range]", in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** The commit the stand-in names for a revision that is a branch ("main"). */
const STAND_IN_COMMIT = "5".repeat(40);

/** Serves `files`; the first GET of each path in `cutOnce` sends half its bytes and drops the connection. */
export async function startStandInHub(files: readonly HubFile[], cutOnce: readonly string[] = []): Promise<StandInHub> {
  const requests: string[] = [];
  const byPath = new Map(files.map((f) => [`/${f.repo}/resolve/${f.revision}/${f.file}`, f]));
  const toCut = new Set(cutOnce);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://hub");
    const range = req.headers.range;
    requests.push(`${req.method} ${url.pathname}${range !== undefined ? ` ${range}` : ""}`);
    const file = byPath.get(url.pathname);
    if (file === undefined) {
      res.writeHead(url.pathname === "/" ? 200 : 404, { "x-error-code": "EntryNotFound" }).end("Entry not found");
      return;
    }
    const etag = `"${createHash("sha256").update(file.bytes).digest("hex")}"`;
    const commit = /^[0-9a-f]{40}$/.test(file.revision) ? file.revision : STAND_IN_COMMIT;
    const headers = {
      "x-repo-commit": commit,
      etag,
      "accept-ranges": "bytes",
      "content-type": "application/octet-stream",
    };
    const match = range === undefined ? null : /^bytes=(\d+)-(\d*)$/.exec(range);
    const start = match ? Number(match[1]) : 0;
    const end = match && match[2] !== "" ? Number(match[2]) : file.bytes.length - 1;
    const body = file.bytes.subarray(start, end + 1);
    const status = match ? 206 : 200;
    res.writeHead(status, {
      ...headers,
      "content-length": body.length,
      ...(match ? { "content-range": `bytes ${start}-${end}/${file.bytes.length}` } : {}),
    });
    if (req.method === "HEAD") return void res.end();
    if (req.method === "GET" && toCut.delete(url.pathname)) {
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
