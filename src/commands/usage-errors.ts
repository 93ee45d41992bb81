// Usage errors as one line that says what to type instead: the command typed, the nearest option, two dashes, the
// choices of an option.

/**
 * Options that were renamed, old name to new: for a while the old name is refused with one line naming the new one
 * (on a command that has it), rather than yargs' "Unknown argument".
 */
const RENAMED: ReadonlyMap<string, string> = new Map([["variants", "designs"]]);

/**
 * yargs' message for a usage error, made to say what was wrong and what to type. `args` is the command line as
 * typed and `known` the option names of the command it reached. yargs' "Did you mean run?" alone does not say
 * what was wrong; "Unknown arguments: r, e, t, i, v" for -retriever does not say one dash was the mistake.
 */
export function usageError(message: string, args: readonly string[], known: readonly string[]): string {
  const typed = args.find((a) => !a.startsWith("-"));
  if (message.startsWith("Did you mean") && typed !== undefined) return `unknown command "${typed}". ${message}`;
  const choices = invalidChoices(message);
  if (choices !== undefined) return choices;
  const unknown = /^Unknown arguments?: (.*)$/.exec(message)?.[1]?.split(", ");
  if (unknown === undefined) return message;
  const oneDash = args.find((a) => /^-[A-Za-z][\w-]+$/.test(a));
  if (oneDash !== undefined) {
    const name = oneDash.slice(1);
    return known.includes(name)
      ? `${oneDash}: a long option takes two dashes: --${name}`
      : `${oneDash}: a long option takes two dashes (--${name}), and there is no option --${name}`;
  }
  const renamed = unknown.flatMap((name) => {
    const now = RENAMED.get(name);
    return now !== undefined && known.includes(now) ? [`--${name} is now called --${now}: give --${now}`] : [];
  });
  if (renamed.length > 0) return renamed.join(" ");
  const hints = unknown.map((name) => [name, nearest(name, known)] as const);
  if (hints.every(([, near]) => near === undefined)) return message;
  return hints
    .map(([name, near]) => `unknown option --${name}${near === undefined ? "" : `; did you mean --${near}?`}`)
    .join(" ");
}

/**
 * yargs' "Invalid values:" block, one line per option ("Argument: retriever, Given: "x", Choices: "bm25", ..."),
 * as lines that name the flag as it is typed: `--retriever must be one of bm25, dense, hybrid, got "x"`.
 */
function invalidChoices(message: string): string | undefined {
  if (!message.startsWith("Invalid values:")) return undefined;
  const lines = message
    .split("\n")
    .slice(1)
    .map((line) => /^\s*Argument: (.+?), Given: (.*), Choices: (.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, name, given, choices]) => `--${name} must be one of ${choices!.replaceAll('"', "")}, got ${given}`);
  return lines.length > 0 ? lines.join("\n") : undefined;
}

/** The known name within two edits of `name` (a swap of neighbours is one), the closest; undefined if none is. */
function nearest(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    if (candidate.length < 2) continue;
    const distance = editDistance(name, candidate);
    if (distance <= 2 && distance < name.length / 2 && (best === undefined || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost one. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The npm scripts that start blogqa with a command of their own (`npm run smoke` is `blogqa smoke`). */
export const COMMAND_SCRIPTS: ReadonlySet<string> = new Set(["smoke", "experiment"]);

/**
 * Under `npm run`, npm reads every option before `--` as its own: `npm run experiment --quant q8_0` sets npm's
 * `quant` to true and hands blogqa the word `q8_0`, which reads as a command. When the environment shows npm took
 * one of the command's options (`npm_config_quant`), this says so and gives the command with the options after
 * `--`; undefined when blogqa was not started by `npm run` or npm took none of them.
 */
export function npmOptionsHint(
  args: readonly string[],
  known: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const script = env.npm_lifecycle_event;
  // npx hands every word to blogqa as typed: nothing of it is npm's. Another script (the test runner, say) that
  // starts blogqa passes on npm's environment, but not a command line npm read.
  if (script === undefined || script === "" || script === "npx") return undefined;
  if (!/\bbin\/blogqa\.cjs\b/.test(env.npm_lifecycle_script ?? "")) return undefined;
  const typed = (name: string) => args.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const taken = known.filter((name) => {
    const value = env[`npm_config_${name.replace(/-/g, "_")}`];
    // npm sets its prefix itself on every run (the global one unless told otherwise): only another value was typed.
    if (name === "prefix" && value === env.npm_config_global_prefix) return false;
    return value !== undefined && !typed(name);
  });
  if (taken.length === 0) return undefined;
  // The command word first (the script's own for `npm run smoke`, so not typed), then the rest as typed, less the
  // words npm left behind of the options it took.
  const [command = "", ...rest] = args;
  const options: string[] = [];
  for (const name of taken) {
    const value = env[`npm_config_${name.replace(/-/g, "_")}`]!;
    if (value !== "true") options.push(`--${name}`, value);
    else {
      const at = rest.findIndex((word) => !word.startsWith("-"));
      options.push(`--${name}`, ...(at === -1 ? [] : rest.splice(at, 1)));
    }
  }
  const own = COMMAND_SCRIPTS.has(script) && command === script ? rest : [command, ...rest];
  const fixed = [`npm run ${script} --`, ...own, ...options].filter((w) => w !== "").join(" ");
  const flags = taken.map((name) => `--${name}`).join(", ");
  return `npm run kept ${flags} for itself (options before \`--\` are npm's); put blogqa's options after \`--\`: ${fixed}`;
}
