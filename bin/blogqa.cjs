#!/usr/bin/env node
// `npx blogqa <command>` and the npm scripts: sizes libuv's pool for the command line first (bin/threadpool.cjs says
// why it must come before any ES module loads), then runs the TypeScript CLI through tsx, with no build step.
"use strict";
require("./threadpool.cjs").useThreadpoolFor(process.argv.slice(2));

import("tsx/esm/api")
  .then(({ register }) => {
    register();
    return import("../src/cli.ts");
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
