// Parses posts in a worker thread, each within its budget of time and memory (post-budget.ts), so that a hostile
// post is refused in one line within seconds, and the main thread stays free to answer SIGINT and SIGTERM.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import type { ParsedPost, ParseOptions } from "./parse-post.ts";
import type { ParseRequest, WorkerMessage } from "./parse-worker.ts";
import {
  memoryProblem,
  parseDeadlineMs,
  POST_BUDGET,
  type PostBudget,
  thrownProblem,
  timeProblem,
} from "./post-budget.ts";

/**
 * The worker's module. Run from source, parse-worker.ts beside this file, which the worker imports through tsx. In
 * the bundle `npm run build` writes (scripts/build-cli.ts), `import.meta.url` still names this source file, but
 * `import.meta.resolve` resolves beside the bundle's own files, where the build writes parse-worker.mjs, which needs
 * no loader: that one is taken when it exists.
 */
const BUNDLED_WORKER = "./parse-worker.mjs"; // a name, not an import: no such file beside the source

export function workerModule(): string {
  const bundled = import.meta.resolve(BUNDLED_WORKER);
  return existsSync(fileURLToPath(bundled)) ? bundled : new URL("./parse-worker.ts", import.meta.url).href;
}

/** tsx's loader, for a worker that must import TypeScript; undefined where tsx is not installed (a compiled build). */
function tsxApi(): string | undefined {
  try {
    return import.meta.resolve("tsx/esm/api");
  } catch {
    return undefined;
  }
}

/**
 * The worker's entry, evaluated in the new thread: it imports the worker's module as it is, and where Node cannot
 * load TypeScript (loaders registered in the main thread, as bin/blogqa.cjs registers tsx, do not reach a worker on
 * Node 20) registers tsx in the thread and imports it again (by another URL: a failed import stays failed). Kept as
 * plain CommonJS so that it needs no loader itself.
 */
const ENTRY = `
const { workerData } = require("node:worker_threads");
import(workerData.module).catch(async (error) => {
  if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION" || workerData.tsx === undefined) throw error;
  (await import(workerData.tsx)).register();
  await import(workerData.module + "?tsx");
});
`;

interface ParseWorker {
  readonly worker: Worker;
  /** The heap limit it was started with: a call with another budget starts its own. */
  readonly memoryMb: number;
  /** Settles when the worker has loaded the parser and can take posts. */
  readonly ready: Promise<void>;
}

function startWorker(budget: PostBudget): ParseWorker {
  const worker = new Worker(ENTRY, {
    eval: true,
    workerData: { module: workerModule(), tsx: tsxApi() },
    resourceLimits: { maxOldGenerationSizeMb: budget.memoryMb },
  });
  // A worker's error is its post's outcome (parseOne); one while idle must not end the command.
  worker.on("error", () => {});
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: WorkerMessage) => {
      if (!("ready" in message)) return;
      worker.off("error", onError).off("exit", onExit).off("message", onMessage);
      resolve();
    };
    const onError = (error: Error) => reject(new Error(`the post parser's worker did not start: ${error.message}`));
    const onExit = (code: number) => reject(new Error(`the post parser's worker exited with ${code} as it started`));
    worker.on("message", onMessage).once("error", onError).once("exit", onExit);
  });
  return { worker, memoryMb: budget.memoryMb, ready };
}

/** What became of one post sent to a worker: parsed (or refused by the parser), or the worker stopped. */
type Outcome = { readonly parsed: ParsedPost } | { readonly stopped: "time" | "memory" | Error };

function parseOne(worker: Worker, request: ParseRequest, deadlineMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const settle = (outcome: Outcome) => {
      clearTimeout(timer);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      resolve(outcome);
    };
    const onMessage = (message: WorkerMessage) => {
      if ("parsed" in message) settle({ parsed: message.parsed });
    };
    const onError = (error: Error) =>
      settle({ stopped: (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : error });
    const onExit = (code: number) => settle({ stopped: new Error(`the post parser's worker exited with ${code}`) });
    const timer = setTimeout(() => {
      settle({ stopped: "time" });
      void worker.terminate();
    }, deadlineMs);
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    worker.postMessage(request);
  });
}

/** The worker kept between calls (idle, it holds no process open); a worker that stopped is replaced. */
let kept: ParseWorker | undefined;

/** The calls in flight, one after another: the worker parses one post at a time and answers without naming it. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Parses each file in a worker, in order: a post over its time or memory budget is one problem naming it and the
 * limit (the worker is stopped and a new one parses the next post). `files` hold the paths to report. Calls made
 * at once (two blogs loaded together) wait their turn, so no call takes another's answers.
 */
export function parsePostsInWorker(
  files: readonly { readonly file: string; readonly bytes: Uint8Array }[],
  options: ParseOptions,
  budget: PostBudget = POST_BUDGET,
): Promise<ParsedPost[]> {
  const turn = queue.then(() => parseInTurn(files, options, budget));
  queue = turn.catch(() => {});
  return turn;
}

async function parseInTurn(
  files: readonly { readonly file: string; readonly bytes: Uint8Array }[],
  options: ParseOptions,
  budget: PostBudget,
): Promise<ParsedPost[]> {
  const results: ParsedPost[] = [];
  if (kept !== undefined && kept.memoryMb !== budget.memoryMb) {
    void kept.worker.terminate();
    kept = undefined;
  }
  for (const { file, bytes } of files) {
    if (kept === undefined) kept = startWorker(budget);
    const current = kept;
    current.worker.ref();
    await current.ready;
    const deadline = parseDeadlineMs(bytes.length, budget);
    const outcome = await parseOne(current.worker, { file, bytes, options }, deadline);
    if ("parsed" in outcome) {
      results.push(outcome.parsed);
      continue;
    }
    kept = undefined;
    const { stopped } = outcome;
    const problem =
      stopped === "time"
        ? timeProblem(file, deadline)
        : stopped === "memory"
          ? memoryProblem(file, budget)
          : thrownProblem(file, stopped);
    results.push({ kind: "problems", problems: [problem] });
  }
  kept?.worker.unref();
  return results;
}
