// docs/commands.md as `npm run docs:commands` writes it: the --help of blogqa and of every command, found by walking
// the "Commands:" lists down from the top, each asked of the command line in this process at a fixed width.
import { commandLine } from "../../src/commands/index.ts";

/** The width every help text is wrapped at, the widest cli.ts uses on a terminal. */
export const HELP_WIDTH = 110;

/** Where the reference lives, relative to the repository's root. */
export const COMMAND_REFERENCE = "docs/commands.md";

/** What `blogqa <words> --help` prints. */
async function helpOf(words: readonly string[]): Promise<string> {
  const args = [...words, "--help"];
  return await new Promise((resolve, reject) => {
    commandLine(args, HELP_WIDTH).parse(args, {}, (error, _argv, output) =>
      error ? reject(error) : resolve(output.trimEnd()),
    );
  });
}

/** The commands a help text lists under "Commands:", as word lists (`["questions", "check"]`). */
function listedCommands(help: string, words: readonly string[]): string[][] {
  const prefix = ["blogqa", ...words].join(" ");
  const found: string[][] = [];
  let inList = false;
  for (const line of help.split("\n")) {
    if (line === "Commands:") inList = true;
    else if (line === "") inList = false;
    else if (inList && line.startsWith(`  ${prefix} `)) {
      const rest = line
        .slice(prefix.length + 3)
        .split(/\s{2,}/)[0]!
        .split(" ");
      const name = rest.filter((w) => !w.startsWith("<") && !w.startsWith("["))[0];
      if (name !== undefined) found.push([...words, name]);
    }
  }
  return found;
}

/** The whole page: the top level, then each command in --help's order, a command's subcommands after it. */
export async function commandReference(): Promise<string> {
  const sections: string[] = [];
  const queue: string[][] = [[]];
  while (queue.length > 0) {
    const words = queue.shift()!;
    const help = await helpOf(words);
    sections.push(`## ${["blogqa", ...words].join(" ")}\n\n\`\`\`text\n${help}\n\`\`\``);
    queue.unshift(...listedCommands(help, words));
  }
  return [
    "# Command reference",
    "",
    "This page is every command's `--help`, as blogqa prints it at a width of 110 columns.",
    "",
    "`npm run docs:commands` writes it from the command line's own definitions (`scripts/write-command-reference.ts`);",
    "a unit test (`test/docs/command-reference.test.ts`) fails when it is stale.",
    "",
    "Run any command as `npx blogqa <command>` or `npm run -s blogqa -- <command>` (without `-s`, npm prints its own",
    "header on stdout, before any `--json` output). Through npm, options follow `--`: `npm run experiment -- --quant",
    "q8_0`. A mistyped command gets the nearest one. A usage error (an unknown command or option, an option given",
    "no value, given twice, or given a value it does not take: a word for a number, a number out of its range, a",
    "choice not listed) prints `blogqa: <what was wrong>` on stderr, naming the option (and, for yargs' own, a line",
    "`run with --help`), and exits with status 2; `test/cli/option-walk.test.ts` holds every option of every command",
    "to it. Seconds (`--request-timeout`, `--judge-timeout`) are taken to the millisecond: 1.5 is 1,500 ms, 1.0005 is",
    "refused. Results go to stdout; progress to stderr: on a terminal",
    "one updating line with done/total, elapsed time, an estimate and the model and design at work, elsewhere (a log,",
    "CI) the same as plain lines every few seconds. Ctrl-C (SIGINT) or SIGTERM ends any command at once, even while a",
    "post is parsed, with `blogqa: stopped by SIGINT` (or `SIGTERM`) and status 130 (or 143); a run releases its",
    "folder's lock, and the same command resumes it (on Ctrl-C a run first says how many runs its folder keeps and",
    "the command that goes on from them).",
    "",
    sections.join("\n\n"),
    "",
  ].join("\n");
}
