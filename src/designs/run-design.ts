// The one door to the runners: runners.ts (and with it the agent loop, the workflow and the engineered steps) loads
// when the first run starts, so the tables and a command's options, which read the registry, never load them.
import type { DesignId } from "./registry.ts";
import type { DesignRun } from "./runners.ts";
import type { Transcript } from "./transcript.ts";

let runners: Promise<typeof import("./runners.ts")> | undefined;

/** One run of one design on one question: the dispatch that every run recipe calls. */
export async function runDesign(design: DesignId, run: DesignRun): Promise<Transcript> {
  runners ??= import("./runners.ts");
  return (await runners).runDesign(design, run);
}
