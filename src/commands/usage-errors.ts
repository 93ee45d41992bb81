// Usage errors as one line that says what to type instead: the command typed, the nearest option, two dashes, the
// choices of an option.

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
