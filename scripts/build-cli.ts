// `npm run build`: bundles the command line into dist/ with esbuild, so `npx blogqa` starts without compiling
// TypeScript each time. bin/blogqa.cjs uses the bundle only while no file under src/ is newer (cli-bundle.cjs).
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { BUNDLE_DIR, BUNDLE_ENTRY } from "../bin/cli-bundle.cjs";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, BUNDLE_DIR);

/**
 * Packages left outside the bundle: native code and the heavy stacks, which load through their lazy doors only
 * when a command runs them, and which find their own files beside them.
 */
const EXTERNAL = [
  "node-llama-cpp",
  "@huggingface/*",
  "onnx-proto",
  "onnxruntime-node",
  "unified",
  "remark-*",
  "gray-matter",
  "ipull",
];

/**
 * A bundled module's `import.meta.url` and `import.meta.dirname` still name its own file (the trained model's
 * weights, the repository's root and yargs' locales are found from them), written relative to the bundle so the
 * checkout can move.
 */
const ownLocation: Plugin = {
  name: "own-location",
  setup(b) {
    b.onLoad({ filter: /\.(ts|js|mjs)$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta.")) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join("/");
      const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      const contents = text
        .replaceAll("import.meta.url", `(${url})`)
        .replaceAll("import.meta.dirname", `blogqaDirname(blogqaPath(${url}))`);
      return { contents, loader: args.path.endsWith(".ts") ? "ts" : "js", resolveDir: path.dirname(args.path) };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  // The post parser's worker is an entry of its own: src/corpus/parse-pool.ts starts it from beside the bundle.
  entryPoints: {
    [path.basename(BUNDLE_ENTRY, ".mjs")]: path.join(root, "src/cli.ts"),
    "parse-worker": path.join(root, "src/corpus/parse-worker.ts"),
  },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  preserveSymlinks: true,
  external: EXTERNAL,
  plugins: [ownLocation],
  // A bundled CommonJS package calls require: give the ES module one.
  banner: {
    js: [
      'import { createRequire as blogqaRequire } from "node:module";',
      'import { dirname as blogqaDirname } from "node:path";',
      'import { fileURLToPath as blogqaPath } from "node:url";',
      "const require = blogqaRequire(import.meta.url);",
    ].join(" "),
  },
  logLevel: "warning",
});
console.log(pathToFileURL(path.join(outdir, path.basename(BUNDLE_ENTRY))).pathname);
