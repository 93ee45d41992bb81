// What the agents did, counted from their transcripts: the study's prose claims (turn limit, reads, second searches,
// calls per run, source lines) as one row per agent (model, design).
import { isAgentDesign, type DesignId, type Transcript } from "../designs/index.ts";
import type { AnswerRecord } from "../runs/index.ts";
import { classifySource } from "./strict.ts";
import { groupRuns, splitQuestionSets } from "./summary.ts";

export interface AgentActionsRow {
  readonly model: string;
  readonly design: DesignId;
  readonly n: number;
  /** Runs still calling tools after the last turn (outcome "ran-out-of-turns"). */
  readonly hit_turn_limit: number;
  /** Runs with at least one search_posts call that ran (a malformed or refused call showed the model nothing). */
  readonly searched: number;
  /** Runs with two or more search_posts calls that ran. */
  readonly searched_again: number;
  /** Runs with at least one read_section call that ran. */
  readonly read_section: number;
  /** [model calls, runs that made that many], fewest calls first; counts no run made are left out. */
  readonly calls_per_run: readonly (readonly [calls: number, runs: number])[];
  /** The strict rescore's classes of the text after the last "Source:". */
  readonly source_none: number;
  readonly source_one_real: number;
  readonly source_several: number;
  readonly source_invented: number;
}

/**
 * One row per agent design and model over the one-post questions of the scored runs (see splitFailed); the workflow
 * and the design extending it have no row, their one search being the design's and not the model's choice.
 */
export function agentActionRows(all: readonly AnswerRecord[], slugs: readonly string[]): AgentActionsRow[] {
  const records = splitQuestionSets(all).onePost.filter((r) => isAgentDesign(r.design));
  return groupRuns(records).map(({ model, design, runs }) => {
    const searches = runs.map((r) => ranCalls(r.transcript, "search_posts"));
    const kinds = runs.map((r) => classifySource(r.answer, slugs).kind);
    return {
      model,
      design,
      n: runs.length,
      hit_turn_limit: runs.filter((r) => r.outcome === "ran-out-of-turns").length,
      searched: searches.filter((s) => s >= 1).length,
      searched_again: searches.filter((s) => s >= 2).length,
      read_section: runs.filter((r) => ranCalls(r.transcript, "read_section") >= 1).length,
      calls_per_run: histogram(runs.map((r) => r.transcript.calls.length)),
      source_none: kinds.filter((k) => k === "none").length,
      source_one_real: kinds.filter((k) => k === "one-real").length,
      source_several: kinds.filter((k) => k === "several").length,
      source_invented: kinds.filter((k) => k === "invented").length,
    };
  });
}

/** Calls of one tool that ran, as answer-record.ts counts searches for found. */
function ranCalls(t: Transcript, tool: string): number {
  return t.calls.flatMap((c) => c.toolCalls).filter((tc) => tc.name === tool && !tc.malformed).length;
}

/** [value, how many times it occurs], smallest value first. */
function histogram(values: readonly number[]): [number, number][] {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0] - b[0]);
}
