// Child of test/layout/loads.test.ts: imports each module named on the command line in turn and prints, as JSON,
// the packages from node_modules and the files of src/ each one loaded first (ES modules seen by a resolve hook,
// CommonJS by require's cache).
import { createRequire, register } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel } from "node:worker_threads";

const src = path.resolve(import.meta.dirname, "../../src");

/**
 * What a file URL or path names in the report: the package it lies in (`node_modules/@scope/name/...` ->
 * `@scope/name`), or a file of src/ as `src/designs/agent-loop.ts`; undefined for anything else.
 */
function packageOf(where: string): string | undefined {
  const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(where);
  if (match !== null) return match[1]!.replace("\\", "/");
  const file = where.startsWith("file:") ? fileURLToPath(where) : where;
  const inSrc = path.relative(src, file);
  return inSrc.startsWith("..") || path.isAbsolute(inSrc) ? undefined : `src/${inSrc.split(path.sep).join("/")}`;
}

const { port1, port2 } = new MessageChannel();
// The hooks run on their own thread: each resolved URL comes back over the port, in the order it was resolved.
const hooks = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, {
  data: { port: port2 },
  transferList: [port2],
});

const seen: string[] = [];
let waiting: { marker: string; done: () => void } | undefined;
port1.on("message", (url: string) => {
  seen.push(url);
  if (waiting !== undefined && url.includes(waiting.marker)) waiting.done();
});
// The port stays referenced until the report is written: an unreferenced one lets the process end (exit 13,
// "unsettled top-level await") while a marker is still on its way from the hooks' thread.

/** Waits until the hooks' thread has reported every resolve before this call: a marker module passes through last. */
async function settle(n: number): Promise<void> {
  const marker = `load-probe-marker-${n}`;
  const arrived = new Promise<void>((done) => {
    waiting = { marker, done };
  });
  await import(`data:text/javascript,export const ${marker.replaceAll("-", "_")} = 1; // ${marker}`);
  await arrived;
}

const require = createRequire(import.meta.url);
const loaded = new Set<string>();
const report: Record<string, string[]> = {};
await settle(0);
for (const [i, target] of process.argv.slice(2).entries()) {
  const before = seen.length;
  await import(target);
  await settle(i + 1);
  const packages = [...seen.slice(before), ...Object.keys(require.cache)].map(packageOf);
  report[target] = [...new Set(packages.filter((p): p is string => p !== undefined && !loaded.has(p)))].sort();
  for (const p of report[target]) loaded.add(p);
}
process.stdout.write(`${JSON.stringify(report)}\n`);
port1.close();
