// Runs the study into a scratch folder (no manifest), as the tests of the runner and the server backends need.
import { openRunFolder, runStudy } from "../../src/runs/index.ts";
import type { RunStudyOptions, StudyRunSummary } from "../../src/runs/runner.ts";

export async function runStudyIn(dir: string, options: Omit<RunStudyOptions, "folder">): Promise<StudyRunSummary> {
  const folder = openRunFolder(dir, { fresh: options.fresh ?? false });
  try {
    return await runStudy({ ...options, folder });
  } finally {
    folder.close();
  }
}
