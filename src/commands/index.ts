// What cli.ts and the scripts may use from the commands: the command line with every command on it, and, for the
// bench, where caches live by default.
export { commandLine } from "./command-line.ts";
export { defaultCacheDir } from "./options.ts";
