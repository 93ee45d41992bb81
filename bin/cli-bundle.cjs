// Where `npm run build` writes the bundled command line, and whether it is current: a bundle older than any file
// or folder under src/ (or than package.json, the lock file or the build script) is stale, and bin/blogqa.cjs then
// runs the TypeScript through tsx instead, so an edit, a checkout or a pull never runs old code.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const BUNDLE_DIR = "dist";
const BUNDLE_ENTRY = "dist/blogqa.mjs";
/** Besides src/: what the bundle is also built from. */
const INPUTS = ["package.json", "package-lock.json", "tsconfig.json", "scripts/build-cli.ts", "bin/cli-bundle.cjs"];

/**
 * The newest modification time (ms) of `dir`, its files and its folders.
 * @param {string} dir
 * @returns {number}
 */
function newestUnder(dir) {
  let newest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * The bundle's entry when it exists and is newer than everything it was built from, else undefined.
 * @param {string} root the repository's root
 * @returns {string | undefined}
 */
function currentBundle(root) {
  const entry = path.join(root, BUNDLE_ENTRY);
  let built;
  try {
    built = fs.statSync(entry).mtimeMs;
  } catch {
    return undefined;
  }
  let newest = newestUnder(path.join(root, "src"));
  for (const input of INPUTS) newest = Math.max(newest, fs.statSync(path.join(root, input)).mtimeMs);
  return built >= newest ? entry : undefined;
}

module.exports = { BUNDLE_DIR, BUNDLE_ENTRY, currentBundle };
