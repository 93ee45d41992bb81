// Writes a run folder's Inspect logs into DIR/inspect/, one file per model, named as Inspect names its logs.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { INSPECT_FOLDER } from "./derived-files.ts";
import { inspectLogs } from "./inspect-log.ts";
import type { ReadRun } from "./read-run-folder.ts";

/** Replaces DIR/inspect/ with this run's logs and returns their paths; `inspect view --log-dir DIR/inspect` opens them. */
export function writeInspectLogs(folder: ReadRun): string[] {
  const out = path.join(folder.dir, INSPECT_FOLDER);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  return inspectLogs(folder).map(({ label, log }) => {
    // Inspect's own names: <created>_<task>_<id>.json, the time with its colons as dashes.
    const created = String((log.eval as { created: string }).created).replaceAll(":", "-");
    const name = label.replace(/[^A-Za-z0-9._-]+/g, "-");
    const file = path.join(out, `${created}_blogqa-${name}_${String((log.eval as { eval_id: string }).eval_id)}.json`);
    writeFileSync(file, `${JSON.stringify(log)}\n`);
    return file;
  });
}
