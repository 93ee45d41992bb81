// The study's limits on a run, which the manifest records: the agent loop's turns and the workflow's hits.

/** Model calls an agent run may make before it is stopped with the ran-out-of-turns answer. */
export const MAX_TURNS = 6;

/** Search hits the workflow puts in its one prompt. */
export const WORKFLOW_HITS = 3;
