// `node --require ./bin/preload-threadpool.cjs --import tsx FILE.ts ...`: sizes libuv's pool for the command line
// before the ES module loader starts it (bin/threadpool.cjs says why). The scripts' entry for the bench and tests.
"use strict";
require("./threadpool.cjs").useThreadpoolFor(process.argv.slice(2));
