// The parse worker's body: parses each post parse-pool.ts sends it, one message a post, and sends the result back.
import { parentPort } from "node:worker_threads";
import type { ParsedPost, ParseOptions } from "./parse-post.ts";
import { guardedParse, thrownProblem } from "./post-budget.ts";

export interface ParseRequest {
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly options: ParseOptions;
}

export type WorkerMessage = { readonly ready: true } | { readonly parsed: ParsedPost };

const port = parentPort;
if (port === null) throw new Error("parse-worker.ts runs in a worker thread started by parse-pool.ts");

// The toolchain loads on the first parse: done here, before "ready", so no post's deadline pays for it.
guardedParse("warm-up.mdx", Buffer.from("---\ntitle: W\n---\n\n## W\n\n*w* <b>w</b>\n"));
guardedParse("warm-up.md", Buffer.from("---\ntitle: W\n---\n\n## W\n\n*w*\n"));

port.on("message", (request: ParseRequest) => {
  const parsed = guardedParse(request.file, request.bytes, request.options);
  try {
    port.postMessage({ parsed } satisfies WorkerMessage);
  } catch (error) {
    // A frontmatter value that cannot cross threads (none YAML's safe schema makes, so far) is still one line.
    port.postMessage({ parsed: { kind: "problems", problems: [thrownProblem(request.file, error)] } });
  }
});
port.postMessage({ ready: true } satisfies WorkerMessage);
