// Ctrl-C during a run: one line saying what the run folder keeps and the command that goes on from it.
import path from "node:path";
import { ANSWERS_FILE, loggedRunCount } from "../runs/index.ts";
import { COMMAND_SCRIPTS } from "./usage-errors.ts";

/** A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes. */
const shellWord = (word: string): string => (/^[\w./:=@,+%-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The command that goes on from a folder's logged runs: `args` (the command line as typed, after the script) less
 * any `--fresh`, plus `--no-fresh` where the command starts over by default (smoke), started the way it was
 * (`npm run smoke -- ...`, `npm run blogqa -- ...`, else `npx blogqa ...`).
 */
export function resumeCommand(
  args: readonly string[],
  startsOverByDefault: boolean,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const kept = args.filter((a) => a !== "--fresh" && a !== "--no-fresh" && !a.startsWith("--fresh="));
  const words = [...kept, ...(startsOverByDefault ? ["--no-fresh"] : [])].map(shellWord);
  const script = env.npm_lifecycle_event;
  if (script !== undefined && COMMAND_SCRIPTS.has(script) && kept[0] === script)
    return [`npm run ${script}`, ...(words.length > 1 ? ["--", ...words.slice(1)] : [])].join(" ");
  if (script === "blogqa") return ["npm run blogqa --", ...words].join(" ");
  return ["npx blogqa", ...words].join(" ");
}

/** The line said on Ctrl-C: how many runs `out` keeps, and the command that goes on from them. */
export function interruptLine(out: string, logged: number, resume: string): string {
  const runs = `${logged} ${logged === 1 ? "run" : "runs"}`;
  return `interrupted: the ${runs} logged in ${path.join(out, ANSWERS_FILE)} are kept; go on from them with: ${resume}`;
}

/**
 * Until the returned function is called, Ctrl-C (SIGINT) first ends the progress bar (`before()`) and writes the line
 * above on stderr; the entry's own SIGINT listener (src/cli.ts), which runs next, then says it stopped and exits
 * with status 130 through process.exit, so the run's lock is released. Each answer is appended whole before the next
 * run starts, so what the log holds at that moment is what a resume keeps.
 */
export function sayOnInterrupt(
  out: string,
  args: readonly string[],
  startsOverByDefault: boolean,
  before: () => void,
): () => void {
  const handler = () => {
    before();
    const resume = resumeCommand(args, startsOverByDefault, process.env);
    process.stderr.write(`\n${interruptLine(out, loggedRunCount(out), resume)}\n`);
  };
  // Before the entry's own SIGINT listener, which ends the process after its "stopped" line.
  process.prependOnceListener("SIGINT", handler);
  return () => {
    process.off("SIGINT", handler);
  };
}
