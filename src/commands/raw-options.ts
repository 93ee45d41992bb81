// Checks on the command line as typed, before yargs reads it: an option given twice, given no value, or a number
// option given a word.

/** What yargs knows of the command being parsed: its option names, their aliases, which take lists or numbers. */
export interface KnownOptions {
  readonly keys: readonly string[];
  readonly aliases: Readonly<Record<string, readonly string[]>>;
  readonly arrays: readonly string[];
  readonly numbers: readonly string[];
  readonly booleans: readonly string[];
  /** The values an option of choices takes, for the message that asks for one. */
  readonly choices?: Readonly<Record<string, readonly unknown[]>>;
}

/**
 * The first problem with `args` as typed, or undefined. Checked on the raw words because yargs has already changed
 * what it hands on: `--limit 6 --limit 1` reads as 7 (it adds a repeated number when the last one is 1) and
 * `--seed=` as 0, both of which a check of the parsed value cannot tell from a value given once.
 */
export function rawOptionProblem(args: readonly string[], known: KnownOptions): string | undefined {
  const canonical = canonicalNames(known);
  const seen = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") break; // what follows is positional
    const match = /^--([^=]+)(=(.*))?$/s.exec(word);
    if (match === null) continue;
    const typed = match[1]!;
    const name = canonical.get(kebab(typed)) ?? canonical.get(kebab(typed.replace(/^no-/, "")));
    if (name === undefined) continue; // unknown options are yargs' strict mode's to name
    const inline = match[2] !== undefined ? match[3]! : undefined;
    const next = args[i + 1];
    const takesValue = !known.booleans.includes(name);
    const value = inline ?? (takesValue && next !== undefined && !next.startsWith("--") ? next : undefined);
    const number = known.numbers.includes(name);
    // yargs would use the default (a number, a list) or "" (a string) without a word
    if (takesValue && value === undefined) {
      const choices = known.choices?.[name];
      const wanted = number ? "a number" : choices !== undefined ? `one of ${choices.join(", ")}` : "a value";
      return `--${name} was given no value (an unset shell variable?): give ${wanted}`;
    }
    if (number && value !== undefined && value.trim() === "")
      return `--${name} was given an empty value (an unset shell variable?): give a number`;
    // yargs reads it as NaN, which a range check would show as "got NaN"
    if (number && value !== undefined && !Number.isFinite(Number(value)))
      return `--${name} takes a number, got ${value}`;
    if (known.arrays.includes(name)) continue;
    const values = seen.get(name) ?? [];
    values.push(value ?? (takesValue ? "" : typed.startsWith("no-") ? "false" : "true"));
    seen.set(name, values);
    if (values.length > 1)
      return `--${name} given ${values.length} times (${values.map((v) => (v === "" ? '""' : v)).join(", ")}): give it once`;
  }
  return undefined;
}

/** Every spelling of an option (its name, an alias, their camelCase forms) to its one kebab-case name. */
function canonicalNames(known: KnownOptions): Map<string, string> {
  const out = new Map(known.keys.map((key) => [kebab(key), kebab(key)] as const));
  for (const [key, aliases] of Object.entries(known.aliases)) for (const a of aliases) out.set(kebab(a), kebab(key));
  return out;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
