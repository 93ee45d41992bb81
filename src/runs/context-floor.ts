// The fewest tokens of context a run's calls need: what --context-size auto never fits below.
import { CONTEXT_FLOOR } from "../llm/index.ts";
import { STUDY_MAX_NEW_TOKENS } from "./settings.ts";

/**
 * CONTEXT_FLOOR at the study's 200 new tokens a call, grown by as many tokens as --max-new-tokens asks beyond them;
 * and never less than the folder's largest logged call and one token more (node-llama-cpp keeps a sequence one token
 * short of its context), so that every run a folder holds fits the context it resumes under.
 */
export function contextFloor(maxNewTokens: number, largestLoggedCall: number): number {
  return Math.max(CONTEXT_FLOOR + Math.max(0, maxNewTokens - STUDY_MAX_NEW_TOKENS), largestLoggedCall + 1);
}
