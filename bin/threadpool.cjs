// How many threads libuv's pool gets, decided before anything starts the pool. node-llama-cpp runs each
// llama_decode (and each token's sampling) as a job on that pool; with the default 4 threads the next job often
// lands on another thread than the last, and on the CPU llama.cpp's compute threads then wait on each other at
// every barrier: decoding ran at about 0.7x its rate on one thread (docs/models.md). libuv reads UV_THREADPOOL_SIZE
// once, when its pool starts, and an ES module entry has started it before its first line runs, so this is
// CommonJS, required first by bin/blogqa.cjs (and preloaded by `npm run bench`). Only speed depends on it: every
// job runs the same computation whichever thread runs it.
"use strict";

/**
 * The pool a run needs: one thread, so that a context's jobs always run on the same one, except for --parallel K
 * on separate contexts (the default without --shared-context), whose K contexts each decode at once on a thread
 * of their own, plus one for everything else.
 * @param {{ parallel: number, sharedContext: boolean }} run
 * @returns {number}
 */
function threadpoolSizeFor(run) {
  return run.parallel > 1 && !run.sharedContext ? run.parallel + 1 : 1;
}

/**
 * The pool size for a blogqa command line, read as yargs reads the two flags it depends on (--parallel N,
 * --parallel=N, --shared-context, --no-shared-context, --shared-context=false); the last one given counts.
 * @param {readonly string[]} args
 * @returns {number}
 */
function threadpoolSize(args) {
  let parallel = 1;
  let sharedContext = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const equals = arg.indexOf("=");
    const flag = equals < 0 ? arg : arg.slice(0, equals);
    const value = equals < 0 ? undefined : arg.slice(equals + 1);
    if (flag === "--parallel") {
      const n = Number(value ?? args[i + 1]);
      if (value === undefined) i++;
      if (Number.isInteger(n) && n > 0) parallel = n;
    } else if (flag === "--shared-context" || flag === "--sharedContext") {
      sharedContext = value === undefined || value === "true";
    } else if (flag === "--no-shared-context" || flag === "--no-sharedContext") {
      sharedContext = false;
    }
  }
  return threadpoolSizeFor({ parallel, sharedContext });
}

/**
 * Sets UV_THREADPOOL_SIZE for `args` unless the environment already sets it (a user's own choice is kept).
 * @param {readonly string[]} args
 */
function useThreadpoolFor(args) {
  if (process.env.UV_THREADPOOL_SIZE === undefined) process.env.UV_THREADPOOL_SIZE = String(threadpoolSize(args));
}

module.exports = { threadpoolSize, threadpoolSizeFor, useThreadpoolFor };
