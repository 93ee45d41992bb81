// Options shared by several commands, defined once so that --help says the same thing everywhere.
import { statSync } from "node:fs";
import path from "node:path";
import type { Argv, Options } from "yargs";
import { environment, type NumberRange, rangeProblem, UserError } from "../common/index.ts";
import { inputSettingOptions } from "../runs/data.ts";

/** A bad option value: one line and exit status 2, as yargs' own usage errors, never a table of NaN. */
export function usageError(message: string): UserError {
  return new UserError(message, 2);
}

/** An option's yargs definition and, for a number, the values it takes (as a run setting's entry holds them). */
export type CheckedOption = Options & { readonly range?: NumberRange };

/** The bounds of a count that has none of its own: what llama.cpp's int32 fields and any plan hold. */
export const COUNT_RANGE: NumberRange = { whole: true, min: 1, max: 2 ** 31 - 1 };
/** A random model's seed: 32 bits. */
export const SEED_RANGE: NumberRange = { whole: true, min: 0, max: 0xffffffff };
/**
 * Seconds one request to a server may take: whole milliseconds (a timer's unit; 1.0005 s made Node refuse every
 * request), at least a second (less aborts any model's reply) and at most 300 (Node's fetch gives up then).
 */
export const REQUEST_SECONDS_RANGE: NumberRange = { whole: false, min: 1, max: 300, milliseconds: true };
/** Tries after the first: the waits double from 0.5 s, so 10 already wait 17 minutes in all. */
export const RETRIES_RANGE: NumberRange = { whole: true, min: 0, max: 10 };

/**
 * A command's options as parsed, checked against their definitions: each number within its range, and no option
 * given twice. yargs turns an option given twice into a list, which a single-valued option would then read as NaN or
 * take one of silently: refuse it, naming the values. An option with a coerce function sees the list itself and
 * refuses it there (its value after coercion may be a list of its own, as --designs is).
 */
export function checkOptions(argv: Readonly<Record<string, unknown>>, options: Record<string, CheckedOption>): void {
  for (const [flag, option] of Object.entries(options)) {
    const value = argv[flag];
    if (option.array !== true && option.coerce === undefined && Array.isArray(value))
      throw usageError(`--${flag} given ${value.length} times (${value.join(", ")}): give it once`);
    const problem = option.range === undefined ? undefined : rangeProblem(flag, option.range, value);
    if (problem !== undefined) throw usageError(problem);
  }
}

/** `y` with `options` declared and checked by checkOptions: what a command with no other checks builds. */
export function checkedOptions<T, const O extends Record<string, CheckedOption>>(y: Argv<T>, options: O) {
  return y.options(options).check((argv) => {
    checkOptions(argv, options);
    return true;
  });
}

/** Where caches live: the index, downloaded models, generated tiny models. */
export function defaultCacheDir(): string {
  return environment().BLOGQA_CACHE ?? path.resolve(".cache");
}

/** The blog's folder and the settings that shape how it is read: what every command that reads a blog takes. */
export const contentOption = {
  content: {
    type: "string",
    default: "content/posts",
    describe: "Folder of the blog's posts (.mdx and .md, in subfolders too)",
  },
  ...inputSettingOptions("blog"),
} as const satisfies Record<string, Options>;

export const questionsOption = {
  questions: { type: "string", default: "questions/questions.jsonl", describe: "Questions file (JSONL)" },
} as const satisfies Record<string, Options>;

/** The blog, the settings that shape the search over it, and the index's cache: what the search commands take. */
export const searchOptions = {
  ...contentOption,
  ...inputSettingOptions("index"),
  "cache-dir": {
    type: "string",
    default: defaultCacheDir(),
    defaultDescription: "$BLOGQA_CACHE or ./.cache",
    describe: "Index, model and parsed-post cache",
  },
} as const satisfies Record<string, Options>;

export const jsonOption = {
  json: { type: "boolean", default: false, describe: "Print JSON instead of a table" },
} satisfies Record<string, Options>;

/** How rescore, compare and report name a run: a folder or its answers.jsonl, and the blog to score it against. */
export const runFolderOptions = {
  content: {
    type: "string",
    describe:
      "Folder of the blog's posts whose slugs the strict scorer looks for (default: the posts listed in the run's manifest.json; " +
      "a folder without one needs it); must be the blog the run searched",
  },
  force: {
    type: "boolean",
    default: false,
    describe: "Score against --content even when it is not the blog the manifest records",
  },
} satisfies Record<string, Options>;

export const runPositional = {
  type: "string",
  demandOption: true,
  describe: "A run folder, or the answers.jsonl inside one",
} as const;

/** The arguments a command's builder declares, as yargs infers them from the option definitions. */
export type BuiltArgs<B> = B extends (y: Argv<object>) => Argv<infer U> ? U : never;

/** The options that name a file or a folder, whichever command takes them. */
const PATH_KINDS: Readonly<Record<string, { readonly kind: "file" | "folder"; readonly what: string }>> = {
  models: { kind: "file", what: "a JSON file of models" },
  "chat-template": { kind: "file", what: "a Jinja template file" },
  "generation-config": { kind: "file", what: "a generation_config.json file" },
  questions: { kind: "file", what: "a .jsonl file (one question a line)" },
  content: { kind: "folder", what: "a folder of posts" },
};

/**
 * Refuses, before any work, a path option that names the wrong kind of thing: read as a file, a folder fails with
 * EISDIR and a stack; listed as a folder, a file was "content folder not found". A missing path is left to the
 * command, which says what it looked for.
 */
export function checkPathKinds(argv: Readonly<Record<string, unknown>>): void {
  for (const [flag, { kind, what }] of Object.entries(PATH_KINDS)) {
    const value = argv[flag];
    if (typeof value !== "string") continue;
    const stat = statSync(value, { throwIfNoEntry: false });
    if (stat === undefined || stat.isDirectory() === (kind === "folder")) continue;
    throw new UserError(`--${flag} ${value} is a ${kind === "file" ? "folder" : "file"}; --${flag} takes ${what}`);
  }
}
