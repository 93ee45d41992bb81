// What cli.ts and the scripts may use from the commands: the command line with every command on it, the run of one
// command line to its exit status (with the streams it writes to), and, for the bench, where caches live by default.
export { commandLine } from "./command-line.ts";
export { defaultCacheDir } from "./options.ts";
export { errorExit, runCommandLine } from "./run-command-line.ts";
