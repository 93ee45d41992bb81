// Qwen2.5-Instruct's chat template, read from the llama.cpp sources node-llama-cpp ships, cached per llama.cpp commit.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { UserError } from "../../common/index.ts";
import { writeFileAtomic } from "../../common/index.ts";

/** The template's path inside llama.cpp's repository. */
export const QWEN25_TEMPLATE_PATH = "models/templates/Qwen-Qwen2.5-7B-Instruct.jinja";

/** `node_modules/node-llama-cpp/llama/gitRelease.bundle`: llama.cpp's sources at the release node-llama-cpp pins. */
export function llamaCppBundlePath(): string {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve("node-llama-cpp"); // .../node-llama-cpp/dist/index.js
  } catch {
    throw new UserError("cannot find node-llama-cpp; run `npm ci` to install the pinned dependencies");
  }
  return path.resolve(path.dirname(entry), "..", "llama", "gitRelease.bundle");
}

function git(args: readonly string[], what: string): string {
  try {
    return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") throw new UserError(`${what} needs git, which is not installed (or not on PATH)`);
    throw new UserError(`${what} failed: git ${args.join(" ")}: ${(e.stderr ?? e.message).trim()}`);
  }
}

/** The commit the bundle holds and the ref naming it (read from the bundle's header, without unpacking it). */
export function bundleHead(bundlePath: string): { readonly commit: string; readonly ref: string } {
  if (!fs.existsSync(bundlePath)) {
    throw new UserError(
      `llama.cpp source bundle not found at ${bundlePath}; node-llama-cpp 3.21.1 ships it (run \`npm ci\`)`,
    );
  }
  const heads = git(["bundle", "list-heads", bundlePath], `reading ${bundlePath}`);
  const match = /^([0-9a-f]{40}) (\S+)$/m.exec(heads);
  if (match === null) throw new UserError(`no commit found in llama.cpp bundle ${bundlePath}`);
  return { commit: match[1]!, ref: match[2]! };
}

/**
 * The text of `QWEN25_TEMPLATE_PATH` at the bundle's commit, byte for byte. The first call unpacks the bundle into
 * a scratch bare repository (about a second) and caches the file as `<cacheDir>/llama.cpp/<commit>/<file name>`.
 */
export function readQwen25Template(
  cacheDir: string,
  bundlePath = llamaCppBundlePath(),
): { readonly text: string; readonly commit: string } {
  return readBundledFile(QWEN25_TEMPLATE_PATH, cacheDir, bundlePath);
}

/** Any file of llama.cpp's repository at the bundle's commit (a chat template under models/templates/), cached alike. */
export function readBundledFile(
  file: string,
  cacheDir: string,
  bundlePath = llamaCppBundlePath(),
): { readonly text: string; readonly commit: string } {
  const { commit, ref } = bundleHead(bundlePath);
  const cached = path.join(cacheDir, "llama.cpp", commit, path.basename(file));
  if (fs.existsSync(cached)) return { text: fs.readFileSync(cached, "utf8"), commit };

  fs.mkdirSync(path.dirname(cached), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(path.dirname(cached), "unbundle-"));
  try {
    git(["init", "--quiet", "--bare", scratch], "unpacking the llama.cpp bundle");
    git(["-C", scratch, "fetch", "--quiet", bundlePath, `${ref}:refs/heads/release`], "unpacking the llama.cpp bundle");
    let text: string;
    try {
      text = execFileSync("git", ["-C", scratch, "show", `${commit}:${file}`], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch {
      throw new UserError(`${file} is missing from llama.cpp commit ${commit} (bundle ${bundlePath})`);
    }
    writeFileAtomic(cached, text);
    return { text, commit };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
