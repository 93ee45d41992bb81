// The environment variables blogqa reads: the process's own, or those a caller running the command line in process
// gave for that one call (two calls at once each keep theirs through every await).
import { AsyncLocalStorage } from "node:async_hooks";

export type Environment = Readonly<Record<string, string | undefined>>;

const current = new AsyncLocalStorage<Environment>();

/** Runs `body` with `env` as what `environment()` answers, inside it and in everything it starts. */
export function withEnvironment<T>(env: Environment, body: () => T): T {
  return current.run(env, body);
}

/** The variables of the call being run, else the process's. */
export function environment(): Environment {
  return current.getStore() ?? process.env;
}
