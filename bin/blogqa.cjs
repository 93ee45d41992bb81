#!/usr/bin/env node
// `npx blogqa <command>` and the npm scripts: sizes libuv's pool for the command line first (bin/threadpool.cjs says
// why it must come before any ES module loads), then runs the bundle `npm run build` wrote while it is current
// (bin/cli-bundle.cjs), else the TypeScript CLI through tsx.
"use strict";
const path = require("node:path");
const { pathToFileURL } = require("node:url");
require("./threadpool.cjs").useThreadpoolFor(process.argv.slice(2));

const bundle = process.env.BLOGQA_NO_BUNDLE
  ? undefined
  : require("./cli-bundle.cjs").currentBundle(path.join(__dirname, ".."));
(bundle !== undefined
  ? import(pathToFileURL(bundle).href)
  : import("tsx/esm/api").then(({ register }) => {
      register();
      return import("../src/cli.ts");
    })
).catch((error) => {
  console.error(error);
  process.exit(1);
});
